/** A registration link's custom label (spec §3 euDefine, §2.1 length rule, §7 getForm): the pure rules and the form loader. */
import { describe, expect, it, vi } from 'vitest';
import { confirmedDefine, defineParam, takesDefine, withDefine } from '../../src/lib/form/define';
import { loadForm } from '../../src/lib/screens/form';
import { contact, page, ports, pathOf } from './screens-helpers';

describe('defineParam (spec §2.1: a label the list shows is shorter than 20 characters)', () => {
  it.each([
    ['VIP', 'VIP'],
    ['  VIP  ', 'VIP'],
    ['贵宾'.repeat(9) + '宾', '贵宾'.repeat(9) + '宾'],
    ['x'.repeat(19), 'x'.repeat(19)],
  ])('keeps %j', (raw, want) => expect(defineParam(raw)).toBe(want));
  it.each([[''], ['   '], ['x'.repeat(20)], ['贵'.repeat(20)], ['x'.repeat(100_000)], ['a\nb'], ['a\u0000'], [null], [undefined]])('drops %j', (raw) =>
    expect(defineParam(raw as string | null | undefined)).toBeNull(),
  );
  it('counts characters as a person does (an emoji is one)', () => expect(defineParam('👍'.repeat(19))).toBe('👍'.repeat(19)));
});

describe('withDefine / takesDefine', () => {
  it('adds the label to a path with or without a query', () => {
    expect(withDefine('/form/1/2/v', 'VIP')).toBe('/form/1/2/v?define=VIP');
    expect(withDefine('/form/1/2/v?e=A1', 'V I&P')).toBe('/form/1/2/v?e=A1&define=V%20I%26P');
    expect(withDefine('/form/1/2/v', null)).toBe('/form/1/2/v');
  });
  it('applies to new registrations only', () => {
    expect(['form', 'proving'].map(takesDefine)).toEqual([true, true]);
    expect(['supplement', 'secondForm', 'repair', 'correct', 'details', 'exhibitor'].some(takesDefine)).toBe(false);
  });
});

describe('confirmedDefine', () => {
  const vip = { define: 'VIP', name: 'VIP guest' };
  it('the organiser confirms it: the label and its name', async () => {
    const port = { getForm: vi.fn(async () => vip) };
    expect(await confirmedDefine(port, { expoId: 1308, fId: 21308, raw: ' VIP ' })).toEqual(vip);
    expect(port.getForm).toHaveBeenCalledWith({ expoId: 1308, fId: 21308, define: 'VIP' });
  });
  it('unknown, another label, a fault or an over-long one: none, and an over-long one is not even asked', async () => {
    expect(await confirmedDefine({ getForm: async () => null }, { expoId: 1, fId: 2, raw: 'VIP' })).toBeNull();
    expect(await confirmedDefine({ getForm: async () => ({ define: 'Staff', name: 'x' }) }, { expoId: 1, fId: 2, raw: 'VIP' })).toBeNull();
    expect(await confirmedDefine({ getForm: () => Promise.reject(new Error('down')) }, { expoId: 1, fId: 2, raw: 'VIP' })).toBeNull();
    const port = { getForm: vi.fn(async () => vip) };
    expect(await confirmedDefine(port, { expoId: 1, fId: 2, raw: 'V'.repeat(20) })).toBeNull();
    expect(port.getForm).not.toHaveBeenCalled();
  });
});

describe('loadForm with ?define= (spec §7 getForm)', () => {
  const rest = pathOf(1308).split('/').filter(Boolean);
  const config = { customerForm: [{ key: 'uname', type: 'text', label: { en: 'Name' }, required: true }] };
  const path = `/form${pathOf(1308)}`;
  it('a verified visitor with a confirmed label: asked once, the line and the hidden field; the label stays on the way back', async () => {
    const p = ports({ getForm: vi.fn(async () => ({ define: 'VIP', name: 'VIP guest' })) });
    const d = await loadForm(page(`${path}?define=VIP`, { contact: contact(1308), config }), p, { route: 'form', rest, variant: null });
    expect(p.getForm).toHaveBeenCalledTimes(1);
    expect(p.getForm).toHaveBeenCalledWith({ expoId: 1308, fId: 21308, define: 'VIP' });
    expect(d?.define).toEqual({ define: 'VIP', name: 'VIP guest' });
    expect(d?.hidden.define).toBe('VIP');
    expect(d?.storageKey).toBe(`form:${path}?define=VIP`);
  });
  it('an unknown label: the normal form (no line, nothing posted)', async () => {
    const d = await loadForm(page(`${path}?define=Boss`, { contact: contact(1308), config }), ports(), { route: 'form', rest, variant: null });
    expect(d?.define).toBeNull();
    expect(d?.hidden.define).toBe('');
    expect(d?.fields.map((f) => f.key)).toEqual(['uname']);
  });
  it('an over-long label is not asked about', async () => {
    const p = ports();
    const d = await loadForm(page(`${path}?define=${'V'.repeat(5000)}`, { contact: contact(1308), config }), p, { route: 'form', rest, variant: null });
    expect(p.getForm).not.toHaveBeenCalled();
    expect(d?.define).toBeNull();
  });
  it('not verified yet: not asked; the lookup link keeps the label', async () => {
    const p = ports();
    const d = await loadForm(page(`${path}?define=VIP`, { config }), p, { route: 'form', rest, variant: null });
    expect(p.getForm).not.toHaveBeenCalled();
    expect(d?.verifyHref).toBe(`/search${pathOf(1308)}?define=VIP`);
  });
});
