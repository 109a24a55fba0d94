import { describe, expect, it } from 'vitest';
import { variantByName } from '../../src/lib/core/variants';
import { loadForm } from '../../src/lib/screens/form';
import { contact, flash, ok, page, ports, pathOf } from './screens-helpers';

const rest = (expoId: number) => pathOf(expoId).split('/').filter(Boolean);
const definition = { customerForm: [{ key: 'uname', type: 'text', label: { zh: '姓名', en: 'Name' }, required: true }] };

describe('loadForm (the registration forms)', () => {
  it('is null for a form that does not exist', async () => {
    expect(await loadForm(page('/nope/1/2/3'), ports(), { route: 'nope', rest: ['1', '2', '3'], variant: null })).toBeNull();
  });

  it('shows the lookup itself on /proving without the verified contact, and asks the upstream nothing', async () => {
    const p = ports();
    const d = await loadForm(page(`/proving${pathOf(1308)}`), p, { route: 'proving', rest: rest(1308), variant: null });
    expect(d?.lookup?.kind).toBe('search');
    expect(d?.verified).toBe(false);
    expect(p.getCustomerId).not.toHaveBeenCalled();
  });

  it('links to the lookup on /form without the verified contact', async () => {
    const d = await loadForm(page(`/form${pathOf(1308)}`), ports(), { route: 'form', rest: rest(1308), variant: null });
    expect(d?.lookup).toBeNull();
    expect(d?.verified).toBe(false);
    expect(d?.lookupHref).toBe(`/search${pathOf(1308)}`);
  });

  it('with the contact: the fields, the flashed values and every failing field with its label', async () => {
    const path = `/form${pathOf(1308)}`;
    const f = flash(path, {
      values: { uname: 'Ann' },
      error: { field: 'uname', key: 'form.required', text: null },
      notice: { tone: 'info', key: 'form.updatePrompt', vars: {}, text: null },
    });
    const d = await loadForm(page(path, { contact: contact(1308), flash: f, config: definition }), ports(), { route: 'form', rest: rest(1308), variant: null });
    expect(d?.verified).toBe(true);
    expect(d?.fields.map((x) => x.key)).toEqual(['uname']);
    expect(d?.values.uname).toBe('Ann');
    expect(d?.errors).toMatchObject([{ field: 'uname', message: 'form.required', label: 'Name' }]);
    expect(d?.updatePrompt).toBe(true);
    expect(d?.notice).toBeNull();
    expect(d?.hidden).toMatchObject({ route: 'form', path: `21308/${pathOf(1308).split('/')[2]}/visitor` });
  });

  it('after a lookup that found nothing: names the verified contact searched, never a value from the URL', async () => {
    const path = `/form${pathOf(1308)}?found=0`;
    const d = await loadForm(page(path, { contact: contact(1308), config: definition }), ports(), { route: 'form', rest: rest(1308), variant: null });
    expect(d?.noneFoundFor).toBe(contact(1308).contact);
    // without the mark, or without the verified contact: no note
    const plain = await loadForm(page(`/form${pathOf(1308)}`, { contact: contact(1308), config: definition }), ports(), { route: 'form', rest: rest(1308), variant: null });
    expect(plain?.noneFoundFor).toBeNull();
    const stranger = await loadForm(page(path, { config: definition }), ports(), { route: 'form', rest: rest(1308), variant: null });
    expect(stranger?.noneFoundFor).toBeNull();
  });

  it('a second form reads its definition and saved values from the second url; a failed call is "unavailable", not an exception', async () => {
    const vc = contact(1178, { secondForm: { userId: 7, urlsId: 30001 } });
    const p = ports({ getCustomerId: ok(definition), queryFromUserExpoId: async () => Promise.reject(new Error('down')) });
    const variant = variantByName('Jakarta');
    const d = await loadForm(page(`/JakartaSecondForm${pathOf(1178)}`, { contact: vc }), p, { route: 'JakartaSecondForm', rest: rest(1178), variant });
    expect(p.getCustomerId).toHaveBeenCalledWith({ expoId: 1178, fId: 30001, ty: 'visitor' });
    expect(d?.fields.map((x) => x.key)).toEqual(['uname']);
    expect(d?.values.uname ?? '').toBe('');
  });
});
