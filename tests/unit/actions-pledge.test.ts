/** The pledge action over its ports, in node: every outcome the adapter renders. */
import { describe, expect, it } from 'vitest';
import { pledge } from '../../src/lib/actions/pledge';
import { jsonOf, type ActionContext } from '../../src/lib/actions/outcome';
import { PLEDGE_COOKIE, PLEDGE_WAIT_MS, pledgeTicket, readPledged } from '../../src/lib/seat/pledge';

const SECRET = 'a-test-secret-of-32-characters!!';
const ORIGIN = 'https://expo.test';
const served = Date.UTC(2026, 10, 25, 3, 0, 0);

function ctx(now: number, cookies: Record<string, string> = {}): ActionContext {
  return { lang: 'en', t: (k, v) => `${k}${v ? JSON.stringify(v) : ''}`, json: false, origin: ORIGIN, cookies, now };
}

async function run(fields: Record<string, string>, now: number, cookies: Record<string, string> = {}) {
  const input = pledge.input.parse(fields);
  return pledge.run(input, { secret: SECRET }, ctx(now, cookies));
}

describe('pledge', () => {
  it('too early: wait, with the seconds left (JSON code 600, HTTP 400)', async () => {
    const ticket = await pledgeTicket(2012, served, SECRET);
    const o = await run({ expoId: '2012', ticket, back: '/x' }, served + 1_000);
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'pledge.wait', vars: { n: 4 } }, status: 400 });
    expect(jsonOf(o, ctx(0).t)).toEqual({ status: 400, body: { code: 600, msg: 'pledge.wait{"n":4}', data: { waitS: 4 } } });
  });
  it('a ticket of another expo or secret is expired, not accepted', async () => {
    const ticket = await pledgeTicket(2012, served, 'another-secret-of-32-characters!');
    const o = await run({ expoId: '2012', ticket, back: '/x' }, served + PLEDGE_WAIT_MS);
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'pledge.expired' }, status: 400 });
    expect(jsonOf(o, ctx(0).t).body.code).toBe(400);
  });
  it('accepted: back to the guarded page with the expo added to the signed cookie', async () => {
    const ticket = await pledgeTicket(2012, served, SECRET);
    const o = await run({ expoId: '2012', ticket, back: `${ORIGIN}/form/1/Mg/visitor` }, served + PLEDGE_WAIT_MS);
    expect(o.kind).toBe('navigate');
    if (o.kind !== 'navigate') return;
    expect(o.location).toBe('/form/1/Mg/visitor');
    const cookie = o.cookies?.find((c) => c.name === PLEDGE_COOKIE);
    expect(await readPledged(cookie?.value ?? undefined, SECRET)).toEqual([2012]);
  });
  it('a back path on another site goes home', async () => {
    const ticket = await pledgeTicket(2012, served, SECRET);
    const o = await run({ expoId: '2012', ticket, back: 'https://evil.test/x' }, served + PLEDGE_WAIT_MS);
    expect(o).toMatchObject({ kind: 'navigate', location: '/' });
  });
});
