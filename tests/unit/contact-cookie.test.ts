import { describe, expect, it } from 'vitest';
import { addOwnCode, CONTACT_COOKIE_MAX_AGE_S, EXPIRED_KEEP_S, expiredContact, FORM_WINDOW_CAP_S, lapsedContact, FORM_WINDOW_S, lookupValues, MAX_CODES, openFormWindow, ownCodes, provenFor, readsCredential, signContact, verifyContact } from '../../src/lib/lookup/contact-cookie';

const SECRET = 'a-test-secret-of-32-characters!!';
const contact = { expoId: 1308, contact: 'one@demo.test', checkType: 2 as const };

describe('verified-contact cookie (DESIGN.md)', () => {
  it('round-trips', async () => {
    const v = await signContact(contact, SECRET, 1_000_000);
    expect(await verifyContact(v, SECRET, 1_000_000 + 1000)).toEqual(contact);
  });
  it('keeps the area code of phone contacts', async () => {
    const phone = { expoId: 1179, contact: '+66800000001', checkType: 1 as const, areaCode: '+66' };
    expect(await verifyContact(await signContact(phone, SECRET), SECRET)).toEqual(phone);
  });
  it('expires after 10 minutes', async () => {
    const v = await signContact(contact, SECRET, 0);
    expect(await verifyContact(v, SECRET, CONTACT_COOKIE_MAX_AGE_S * 1000 - 1)).not.toBeNull();
    expect(await verifyContact(v, SECRET, CONTACT_COOKIE_MAX_AGE_S * 1000)).toBeNull();
  });
  it('rejects another secret, a changed payload and junk', async () => {
    const v = await signContact(contact, SECRET);
    expect(await verifyContact(v, 'another-secret-of-32-characters!')).toBeNull();
    const [body, sig] = v.split('.');
    const forged = btoa(JSON.stringify({ ...contact, contact: 'victim@demo.test', exp: 9e9 })).replace(/=+$/, '');
    expect(await verifyContact(`${forged}.${sig}`, SECRET)).toBeNull();
    expect(await verifyContact(`${body}`, SECRET)).toBeNull();
    expect(await verifyContact('a.b.c', SECRET)).toBeNull();
    expect(await verifyContact('', SECRET)).toBeNull();
  });
  it('refuses a short secret', async () => {
    await expect(signContact(contact, 'short')).rejects.toThrow(/SESSION_SECRET/);
  });
});

describe('verified-contact cookie carries the lookup context', () => {
  it('keeps a second-form reference and a selection list', async () => {
    const full = {
      ...contact,
      secondForm: { userId: 7, urlsId: 11780 },
      list: [{ e: 'K7QW3ZP9M2XR', n: '王小明', c: 3, d: 'VIP', t: null }],
    };
    expect(await verifyContact(await signContact(full, SECRET), SECRET)).toEqual(full);
  });
});

describe('codes and bypass (issue 9 holes 10, 12)', () => {
  it('round-trips the found codes and the bypass mark, and refuses other shapes', async () => {
    const vc = { ...contact, codes: ['A1', 'B2'], bypass: true as const };
    expect(await verifyContact(await signContact(vc, SECRET), SECRET)).toEqual(vc);
    const bad = { ...contact, bypass: 'yes' } as unknown as typeof contact;
    expect(await verifyContact(await signContact(bad, SECRET), SECRET)).toBeNull();
    const tooMany = { ...contact, codes: Array.from({ length: MAX_CODES + 1 }, (_, i) => `C${i}`) };
    expect(await verifyContact(await signContact(tooMany, SECRET), SECRET)).toBeNull();
  });

  it('ownCodes: the codes, else the list entries, else none', () => {
    expect(ownCodes({ ...contact, codes: ['A1'] })).toEqual(['A1']);
    expect(ownCodes({ ...contact, list: [{ e: 'L1', n: 'x', c: 0, d: null, t: null }] })).toEqual(['L1']);
    expect(ownCodes(contact)).toEqual([]);
    expect(ownCodes(null)).toEqual([]);
  });
});

describe('provenFor (issue 9 hole 10)', () => {
  it('is the contact of that expo, never a bypass one', () => {
    expect(provenFor(contact, 1308)).toEqual(contact);
    expect(provenFor(contact, 1179)).toBeNull();
    expect(provenFor({ ...contact, bypass: true }, 1308)).toBeNull();
    expect(provenFor(null, 1308)).toBeNull();
  });
});

describe('the registration form window (issue 14)', () => {
  const MIN = 60_000;
  const proved = (ms: number) => signContact(contact, SECRET, ms);

  it('a form render opens 30 minutes for registering; reading keeps its 10 minutes', async () => {
    const opened = await openFormWindow(await proved(0), SECRET, 8 * MIN);
    expect(opened).not.toBeNull();
    const v = opened?.value ?? '';
    expect(await verifyContact(v, SECRET, 37 * MIN, 'register')).toEqual(contact);
    expect(await verifyContact(v, SECRET, 38 * MIN, 'register')).toBeNull();
    expect(await verifyContact(v, SECRET, 9 * MIN)).toEqual(contact);
    expect(await verifyContact(v, SECRET, 10 * MIN), 'the lookup, list and credential read window is unchanged').toBeNull();
  });

  it('each render moves the window on, never past 2 hours after the proof', async () => {
    let v = await proved(0);
    for (const at of [5, 30, 55, 80, 105]) v = (await openFormWindow(v, SECRET, at * MIN))?.value ?? '';
    expect(await verifyContact(v, SECRET, (FORM_WINDOW_CAP_S / 60 - 1) * MIN, 'register')).toEqual(contact);
    expect(await verifyContact(v, SECRET, (FORM_WINDOW_CAP_S / 60) * MIN, 'register')).toBeNull();
    expect(await openFormWindow(v, SECRET, (FORM_WINDOW_CAP_S / 60) * MIN)).toBeNull();
  });

  it('a cookie past every window does not reopen, and says which contact it was', async () => {
    const v = await proved(0);
    expect(await openFormWindow(v, SECRET, 11 * MIN)).toBeNull();
    expect(await expiredContact(v, SECRET, 11 * MIN)).toEqual(contact);
    expect(await expiredContact(v, SECRET, 5 * MIN), 'a valid cookie is not expired').toBeNull();
    expect(await expiredContact(v, 'another-secret-of-32-characters!', 11 * MIN)).toBeNull();
  });

  it('a lapsed contact is one whose window for the page has passed: the read window after 10 minutes, the form window later (issue 30)', async () => {
    const v = (await openFormWindow(await proved(0), SECRET, 1 * MIN))?.value ?? '';
    expect(await lapsedContact(v, SECRET, 11 * MIN, 'read')).toEqual(contact);
    expect(await lapsedContact(v, SECRET, 11 * MIN, 'register'), 'the form window still holds').toBeNull();
    expect(await lapsedContact(v, SECRET, 5 * MIN, 'read'), 'a valid cookie has not lapsed').toBeNull();
    expect(await lapsedContact(v, SECRET, 32 * MIN, 'register')).toEqual(contact);
    expect(await lapsedContact(v, 'another-secret-of-32-characters!', 32 * MIN, 'read')).toBeNull();
    expect(await lapsedContact('garbage', SECRET, 32 * MIN, 'read')).toBeNull();
  });

  it('an expired contact comes back filled in on the lookup (lookupValues: e-mail, or area code and national number)', () => {
    expect(lookupValues({ expoId: 1308, contact: 'ann@demo.test', checkType: 2 })).toEqual({ checkType: '2', email: 'ann@demo.test' });
    expect(lookupValues({ expoId: 1308, contact: '+66812345678', checkType: 1, areaCode: '+66' })).toEqual({ checkType: '1', areaCode: '+66', phone: '812345678' });
    expect(lookupValues({ expoId: 1308, contact: '812345678', checkType: 1 })).toEqual({ checkType: '1', areaCode: '', phone: '812345678' });
  });

  it('the browser keeps it an hour past its window (to say "expired"), and a bypass cookie opens nothing', async () => {
    const opened = await openFormWindow(await proved(0), SECRET, 0);
    expect(opened?.maxAge).toBe(FORM_WINDOW_S + EXPIRED_KEEP_S);
    expect(await openFormWindow(await signContact({ ...contact, bypass: true }, SECRET, 0), SECRET, MIN)).toBeNull();
  });

  it('the window end is signed: a changed fexp is refused', async () => {
    const v = (await openFormWindow(await proved(0), SECRET, 0))?.value ?? '';
    const [body = '', sig = ''] = v.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const longer = Buffer.from(JSON.stringify({ ...payload, fexp: 9e9 })).toString('base64url');
    expect(await verifyContact(`${longer}.${sig}`, SECRET, 0, 'register')).toBeNull();
  });
});

describe('the credential page\'s personal details (issue 19 item 3)', () => {
  const SECRET_19 = 'issue-19-secret-0123456789';
  const mine = { expoId: 1308, contact: 'one@demo.test', checkType: 2 as const, codes: ['ABC'] };

  it('readsCredential: only a code this contact\'s own lookup found, on that expo', () => {
    expect(readsCredential(mine, { expoId: 1308, euCode: 'ABC' })).toBe(true);
    expect(readsCredential(mine, { expoId: 1308, euCode: 'XYZ' })).toBe(false);
    expect(readsCredential(mine, { expoId: 1309, euCode: 'ABC' })).toBe(false);
    expect(readsCredential(null, { expoId: 1308, euCode: 'ABC' })).toBe(false);
    const listed = { expoId: 1308, contact: 'one@demo.test', checkType: 2 as const, list: [{ e: 'L1', n: 'n', c: 1, d: null, t: null }] };
    expect(readsCredential(listed, { expoId: 1308, euCode: 'L1' })).toBe(true);
  });

  it('addOwnCode: the code a form just registered joins the codes; windows kept; a stale, forged or bypass cookie gets nothing', async () => {
    const now = Date.UTC(2026, 10, 24, 12);
    const value = await signContact(mine, SECRET_19, now);
    const added = await addOwnCode(value, SECRET_19, 'NEW', now + 60_000);
    expect(added).not.toBeNull();
    const vc = await verifyContact(added?.value, SECRET_19, now + 60_000);
    expect(vc?.codes).toEqual(['ABC', 'NEW']);
    // the read window is still the proof's 10 minutes
    expect(await verifyContact(added?.value, SECRET_19, now + 10 * 60_000 + 1)).toBeNull();
    expect(await addOwnCode(value, SECRET_19, 'NEW', now + 11 * 60_000)).toBeNull();
    expect(await addOwnCode(`${value}x`, SECRET_19, 'NEW', now)).toBeNull();
    expect(await addOwnCode(await signContact({ ...mine, bypass: true }, SECRET_19, now), SECRET_19, 'NEW', now)).toBeNull();
    // at most MAX_CODES, the oldest make room
    const full = await signContact({ ...mine, codes: Array.from({ length: MAX_CODES }, (_, i) => `C${i}`) }, SECRET_19, now);
    const more = await verifyContact((await addOwnCode(full, SECRET_19, 'NEW', now))?.value, SECRET_19, now);
    expect(more?.codes).toHaveLength(MAX_CODES);
    expect(more?.codes?.at(-1)).toBe('NEW');
    expect(more?.codes).not.toContain('C0');
  });
});
