import { describe, expect, it } from 'vitest';
import { loadCredential } from '../../src/lib/screens/credential';
import type { Credential } from '../../src/lib/util/domain';
import { NOW, contact, flash, ok, page, ports } from './screens-helpers';

const params = { urlId: 21308, euCode: 'EU123456', expoId: 1308, fId: 21308 };
const record = { euCode: 'EU123456', uname: 'Ann', euClass: 0, useStatus: 0 } as unknown as Credential;

describe('loadCredential (the credential page)', () => {
  it('an unknown code is a 404 with the way to the lookup', async () => {
    const d = await loadCredential(page('/success/x'), ports(), { params, variant: null }, { kind: 'unknown' });
    expect(d.status).toBe(404);
    expect(d.title).toBe('error.noData');
    expect(d.lookup).toContain('/search/21308/');
  });

  it('too many unknown codes: a 429 with Retry-After and the limit text', async () => {
    const d = await loadCredential(page('/success/x'), ports(), { params, variant: null }, { kind: 'limited', retryAfterS: 90 });
    expect(d.status).toBe(429);
    expect(d.headers['retry-after']).toBe('90');
    expect(d.refused).toBe(true);
  });

  it('a found code: the offline header; the details only for the contact whose lookup found it', async () => {
    const anyone = await loadCredential(page('/success/x'), ports(), { params, variant: null }, { kind: 'found', record });
    expect(anyone.status).toBe(200);
    expect(anyone.headers['x-offline-until']).toMatch(/^\d+$/);
    expect(anyone.headers['x-offline-copy']).toMatch(/^e=1308&k=credential&c=/);
    expect(anyone.reader).toBe(false);
    const owner = await loadCredential(page('/success/x', { contact: contact(1308, { codes: ['EU123456'] }) }), ports(), { params, variant: null }, { kind: 'found', record });
    expect(owner.reader).toBe(true);
  });

  it('the way back to the list it was picked from, while the proof lasts; none for one registration or a code not on it', async () => {
    const row = (e: string) => ({ e, n: 'Ann', c: 0, d: null, t: null });
    const two = contact(1308, { list: [row('EU123456'), row('EU999999')] });
    const d = await loadCredential(page('/success/x?f=abc', { contact: two }), ports(), { params, variant: null }, { kind: 'found', record });
    expect(d.list).toEqual({ href: expect.stringMatching(/^\/applyList\/21308\/[A-Za-z0-9_-]+\/visitor\?f=abc$/), n: 2 });
    const one = contact(1308, { list: [row('EU123456')] });
    expect((await loadCredential(page('/success/x', { contact: one }), ports(), { params, variant: null }, { kind: 'found', record })).list).toBeNull();
    const other = contact(1308, { list: [row('EU111111'), row('EU999999')] });
    expect((await loadCredential(page('/success/x', { contact: other }), ports(), { params, variant: null }, { kind: 'found', record })).list).toBeNull();
    // another expo's proof leads to no list here
    const elsewhere = contact(1216, { list: [row('EU123456'), row('EU999999')] });
    expect((await loadCredential(page('/success/x', { contact: elsewhere }), ports(), { params, variant: null }, { kind: 'found', record })).list).toBeNull();
  });

  it('the last entry at a gate as a sentence (expo-local: 2025-06-01 12:00 at NOW), and the offline copy\'s saved time both ways', async () => {
    const entered = { ...record, useStatus: 1, usedCount: 1, maxCount: 3, lastEntry: { at: '2025-06-01 09:12:00', gate: 'Gate 3' } } as Credential;
    const d = await loadCredential(page('/success/x'), ports(), { params, variant: null }, { kind: 'found', record: entered });
    expect(d.lastEntry).toBe('entry.checkedIn{"when":"09:12","gate":"Gate 3"}');
    expect(d.saved).toEqual({
      today: 'entry.saved{"time":"12:00"}',
      later: 'entry.saved{"time":"01/06/2025 12:00"}',
      dayEnd: NOW + 12 * 3600_000,
    });
    const earlier = { ...entered, lastEntry: { at: '2025-05-31 17:40:00', gate: 'North' } } as Credential;
    expect((await loadCredential(page('/success/x'), ports(), { params, variant: null }, { kind: 'found', record: earlier })).lastEntry).toBe(
      'entry.checkedIn{"when":"31/05/2025 17:40","gate":"North"}',
    );
    const never = await loadCredential(page('/success/x'), ports(), { params, variant: null }, { kind: 'found', record });
    expect(never.lastEntry).toBeNull();
    expect((await loadCredential(page('/success/x'), ports(), { params, variant: null }, { kind: 'unknown' })).lastEntry).toBeNull();
  });

  it('awaiting review (spec §2.5): the state, and nothing for the gate: no QR, no offline copy', async () => {
    const awaiting = { ...record, auditStatus: 1 } as Credential;
    const owner = await loadCredential(page('/success/x', { contact: contact(1308, { codes: ['EU123456'] }) }), ports(), { params, variant: null }, { kind: 'found', record: awaiting });
    expect(owner).toMatchObject({ status: 200, awaiting: true, admits: false, voided: false, reader: true });
    expect(owner.headers['x-offline-until']).toBeUndefined();
    const approved = await loadCredential(page('/success/x'), ports(), { params, variant: null }, { kind: 'found', record: { ...record, auditStatus: 0 } as Credential });
    expect(approved).toMatchObject({ awaiting: false, admits: true });
  });

  it('the health upload on expos asking for the pledge, for the owner only', async () => {
    const config = { customerWx: { healthPledge: 1 } };
    const d = await loadCredential(page('/success/x', { config, contact: contact(1308, { codes: ['EU123456'] }) }), ports(), { params, variant: null }, { kind: 'found', record });
    expect(d.health).toBe(true);
    expect(d.owner).toBe(true);
  });

  it('site booking: each type with its dates, the registration’s bookings, the notice of this page only', async () => {
    const p = ports({
      selectSiteTypeList: ok([{ id: 1, name: 'Hall', note: '' }]),
      selectSiteDateList: ok([{ id: 9, date: '2025-06-02', timeRange: '10-11', capacity: 5, booked: 1 }]),
      selectExpoUserSiteId: ok([]),
    });
    const back = '/success/x';
    const f = flash(back, { notice: { tone: 'info', key: 'site.booked', vars: {}, text: null } });
    const d = await loadCredential(page(back, { flash: f }), p, { params, variant: null }, { kind: 'found', record });
    expect(d.sites.types).toMatchObject([{ type: { id: 1 }, dates: [{ id: 9 }] }]);
    expect(d.uploads.items).toEqual([]);
    expect(p.listHealth).not.toHaveBeenCalled();
    expect(d.sites.notice).toBeNull(); // the flash names another page
    expect(d.sites.owner).toBe(false);
    const owner = await loadCredential(page(back, { contact: contact(1308, { codes: ['EU123456'] }) }), p, { params, variant: null }, { kind: 'found', record });
    expect(owner.sites.owner).toBe(true); // books sites on any expo
    expect(owner.owner).toBe(false); // no health upload without the pledge
  });

  it('"share as me" (spec §1): the visitor home with defineName and a signed shareUserId, for the proven visitor only', async () => {
    const secret = 'a-test-secret-of-enough-length';
    const anyone = await loadCredential(page('/success/x'), ports(), { params, variant: null }, { kind: 'found', record }, secret);
    expect(anyone.personalShare).toBeNull();
    const owner = await loadCredential(page('/success/x', { contact: contact(1308, { codes: ['EU123456'] }) }), ports(), { params, variant: null }, { kind: 'found', record }, secret);
    const url = new URL(owner.personalShare?.url ?? 'x:');
    expect(url.pathname).toBe('/21308/MTMwOA/visitor');
    expect(url.searchParams.get('defineName')).toBe('Ann');
    expect(url.searchParams.get('shareUserId')).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(owner.personalShare?.url).not.toContain('EU123456');
    // without a usable secret: no link
    const noSecret = await loadCredential(page('/success/x', { contact: contact(1308, { codes: ['EU123456'] }) }), ports(), { params, variant: null }, { kind: 'found', record }, '');
    expect(noSecret.personalShare).toBeNull();
  });
});
