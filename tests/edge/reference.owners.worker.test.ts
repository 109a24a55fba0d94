/**
 * Who owns a registration in the reference upstream (issue 19 item 1, migration 0005,
 * docs/upstream.md "Who owns a registration"): the contact the edge proved (`checkType`), never a
 * contact typed into the form. Every call that finds "this contact's registrations" (lookups,
 * the 20003 second form, the repair form, the 20001 prompt and the update) is run here by the
 * typed contact, which must get nothing, and by the proven one.
 */
import { describe, expect, it } from 'vitest';
import { Registration } from '../../src/lib/contract';
import { call, dec, enc, lookupCall, outboxCode, send, testEnv } from './reference.helpers';

const add = async (expoId: number, urlsId: number, values: unknown) =>
  call('/CustomerUserInfo/addUserInfo', { expoId, body: { expoId, urlsId, data: await enc(JSON.stringify(values), expoId) } });

/** A verified lookup of the reference (send, code from the outbox, lookup); the envelope. */
async function lookup(expoId: number, contact: string) {
  const email = contact.includes('@');
  const sms = contact.startsWith('+86') ? 'getCaptcha' : 'getSmsGJEnCode';
  expect((await send(email ? 'getemailCode' : sms, expoId, sms === 'getCaptcha' ? contact.slice(3) : contact)).code).toBe(200);
  return lookupCall(email ? 'email' : 'phone', expoId, contact, await outboxCode(contact));
}
const codesOf = async (expoId: number, contact: string) => {
  const r = await lookup(expoId, contact);
  expect(r.code, JSON.stringify(r)).toBe(200);
  return Registration.array()
    .parse(await dec(r.data, expoId))
    .map((x) => x.euCode);
};
const owners = (id: number) => testEnv.DB.prepare('SELECT * FROM registrations WHERE id = ?').bind(id).first();

// Expo 1316 (Malaysia): phone and e-mail lookups, the default form. Contacts unique to this file.
const E = 1316;
const U = 21316;

describe('a typed contact is data, never an identity', () => {
  it('a registration is found by its proven contact only, not by the contact typed beside it', async () => {
    const r = await add(E, U, { uname: 'Typed', phone: '+60123000101', email: 'typed-victim@demo.test', checkType: 1 });
    const { euCode, id } = r.data as { euCode: string; id: number };
    expect(await codesOf(E, '+60123000101')).toEqual([euCode]);
    expect(await codesOf(E, 'typed-victim@demo.test')).toEqual([]);
    expect(await owners(id)).toMatchObject({ owner_phone: '+60123000101', owner_email: null, email: 'typed-victim@demo.test' });
    // And the other way round: a typed phone.
    const r2 = await add(E, U, { uname: 'Typed 2', phone: '+60123000102', email: 'typed-owner@demo.test', checkType: 2 });
    expect(await codesOf(E, 'typed-owner@demo.test')).toEqual([(r2.data as { euCode: string }).euCode]);
    expect(await codesOf(E, '+60123000102')).toEqual([]);
  });

  it('the typed contact gets no 20001 prompt for that registration, and registering makes a row of its own', async () => {
    const planted = await add(E, U, { uname: 'Mallory', phone: '+60123000103', email: 'mallory-p@demo.test', checkType: 2 });
    const theirs = (planted.data as { id: number }).id;
    const before = await owners(theirs);
    const mine = await add(E, U, { uname: 'Victoria', phone: '+60123000103', email: 'victoria-typed@demo.test', checkType: 1 });
    expect(mine.code).toBe(200);
    expect((mine.data as { id: number }).id).not.toBe(theirs);
    const forced = await add(E, U, { uname: 'Victoria Again', phone: '+60123000103', checkType: 1, update: true });
    expect(forced.code).toBe(200);
    expect((forced.data as { id: number }).id).toBe((mine.data as { id: number }).id);
    expect(await owners(theirs)).toEqual(before);
    // Their own contact still gets their own prompt (spec §5).
    const again = await add(E, U, { uname: 'Mallory 2', phone: '+60123000103', email: 'mallory-p@demo.test', checkType: 2 });
    expect(again).toMatchObject({ code: 20001, data: { id: theirs } });
  });

  it('a repair form is refused to a contact that only typed into the registration', async () => {
    const planted = await add(E, U, { uname: 'Mallory', phone: '+60123000104', email: 'repair-victim@demo.test', checkType: 1 });
    const { euCode, id } = planted.data as { euCode: string; id: number };
    const before = await owners(id);
    const r = await add(E, U, { uname: 'Victoria', email: 'repair-victim@demo.test', checkType: 2, euCode, update: true });
    expect(r.code).toBe(404);
    expect(await owners(id)).toEqual(before);
  });

  it('a second form (20003) is offered to, and completed by, the proven contact only', async () => {
    const planted = await add(E, U, { uname: 'Mallory', phone: '+60123000105', email: 'second-victim@demo.test', checkType: 1 });
    const { id } = planted.data as { id: number };
    // The organiser asks this registration for a second form (as seed's 100042 on 1178).
    await testEnv.DB.prepare('INSERT INTO second_forms (user_id, urls_id) VALUES (?, ?)').bind(id, U).run();
    const typed = await lookup(E, 'second-victim@demo.test');
    expect(typed.code).toBe(200);
    expect(await dec(typed.data, E)).toEqual([]);
    const done = await add(E, U, { uname: 'Victoria', email: 'second-victim@demo.test', checkType: 2, userId: id });
    expect(done.code).toBe(404);
    const proven = await lookup(E, '+60123000105');
    expect(proven).toMatchObject({ code: 20003, data: { userId: id, urlsId: U } });
  });
});

describe('an update never leaves another contact owning the row', () => {
  // Seed 100040 (1178): one@demo.test and +62811000000, both proven (migration 0005, seed owners).
  it("an update by one proven contact that keeps the other's contact keeps its owner", async () => {
    const same = await add(1178, 21178, { uname: 'Joko Same', phone: '+62811000000', email: 'one@demo.test', checkType: 1, update: true });
    expect(same).toMatchObject({ code: 200, data: { id: 100040 } });
    expect(await owners(100040)).toMatchObject({ uname: 'Joko Same', owner_email: 'one@demo.test', owner_phone: '+62811000000' });
  });

  it('an update that changes the other contact drops its owner: the old and the newly typed contact find nothing', async () => {

    const changed = await add(1178, 21178, { uname: 'Joko New', phone: '+62811000000', email: 'joko-new@demo.test', checkType: 1, update: true });
    expect(changed).toMatchObject({ code: 200, data: { id: 100040 } });
    // Neither the newly typed e-mail nor the old one finds it; the proven phone does.
    const code = 'GBBT4JGWCJM4W4IY';
    expect(await codesOf(1178, 'joko-new@demo.test')).not.toContain(code);
    expect(await codesOf(1178, 'one@demo.test')).not.toContain(code);
    expect(await codesOf(1178, '+62811000000')).toContain(code);
    expect(await owners(100040)).toMatchObject({
      uname: 'Joko New',
      phone: '+62811000000',
      email: 'joko-new@demo.test',
      owner_phone: '+62811000000',
      owner_email: null,
    });
  });
});
