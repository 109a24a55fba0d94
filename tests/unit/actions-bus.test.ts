/** The shuttle bus action (src/lib/actions/bus.ts) over fake ports, in node: every outcome branch. */
import { describe, expect, it, vi } from 'vitest';
import { bus, type BusPorts } from '../../src/lib/actions/bus';
import { jsonOf, type ActionContext, type ActionOutcome } from '../../src/lib/actions/outcome';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { routePath } from '../../src/lib/core/routes';
import { okReply, refusedReply } from './upstream-fakes';

/** The outcome with what an island gets of it (functions/api/action.ts answers it so). */
const island = (o: ActionOutcome<unknown>) => ({ ...o, reply: jsonOf(o, ((k: string, v?: Record<string, string | number>) => `${k}${v ? JSON.stringify(v) : ''}`)).body });

const SECRET = 'a-test-secret-of-32-characters!!';
const ORIGIN = 'https://expo.test';
const t: ActionContext['t'] = (k, v) => `${k}${v ? JSON.stringify(v) : ''}`;
const params = { urlId: 21308, euCode: 'MINE01', expoId: 1308, fId: 21308, euUserId: 100001 };
const busPath = routePath({ screen: 'bus', which: 'bus', params });
const infoPath = routePath({ screen: 'bus', which: 'busInfo', params });

async function ctxOf(codes: string[] | null, json = false, expoId = 1308): Promise<ActionContext> {
  const cookies = codes === null ? {} : { [CONTACT_COOKIE]: await signContact({ expoId, contact: 'a@b.test', checkType: 2, codes }, SECRET) };
  return { lang: 'en', t, json, origin: ORIGIN, cookies, now: Date.now() };
}

function portsOf(more: Partial<BusPorts['up']> = {}): BusPorts {
  return {
    up: {
      addBusUser: vi.fn(async () => okReply({ id: 9 })),
      cancelBusUser: vi.fn(async () => okReply(null)),
      ...more,
    },
    secret: SECRET,
    codes: { full: 20301, alreadyReserved: 20302 },
  };
}

const reserve = { action: 'reserve', departureId: '8101', stopId: '8011', back: busPath };

describe('POST /api/bus (the action)', () => {
  it('the owner reserves: on to /busInfo with "reserved"; the upstream gets the code of the link', async () => {
    const p = portsOf();
    const o = await bus.run(reserve, p, await ctxOf(['MINE01']));
    expect(island(o)).toMatchObject({ kind: 'notice', to: infoPath, notice: { tone: 'info', key: 'bus.reserved' }, reply: { code: 200, data: { id: 9 } } });
    expect(p.up.addBusUser).toHaveBeenCalledWith({ expoId: 1308, euCode: 'MINE01', departureId: 8101, stopId: 8011 });
  });

  it('full and already: back here with the named refusal; another refusal with its own words', async () => {
    expect(island(await bus.run(reserve, portsOf({ addBusUser: async () => refusedReply(20301, 'x') }), await ctxOf(['MINE01'])))).toMatchObject({ notice: { tone: 'error', key: 'bus.full' }, reply: { code: 20301 } });
    expect(await bus.run(reserve, portsOf({ addBusUser: async () => refusedReply(20302, 'x') }), await ctxOf(['MINE01']))).toMatchObject({ notice: { key: 'bus.already' } });
    const other = await bus.run(reserve, portsOf({ addBusUser: async () => refusedReply(404, 'no such departure') }), await ctxOf(['MINE01']));
    expect(other).toMatchObject({ notice: { key: null, text: 'no such departure' } });
    expect(other).not.toHaveProperty('to');
  });

  it('cancel: on to /bus with "cancelled"', async () => {
    const p = portsOf();
    expect(await bus.run({ action: 'cancel', id: '3', back: infoPath }, p, await ctxOf(['MINE01']))).toMatchObject({ to: busPath, notice: { key: 'bus.cancelled' } });
    expect(p.up.cancelBusUser).toHaveBeenCalledWith({ expoId: 1308, euCode: 'MINE01', id: 3 });
  });

  it("someone else's code, no cookie, another expo's cookie: 403, the upstream never asked", async () => {
    for (const ctx of [await ctxOf(['OTHER']), await ctxOf(null), await ctxOf(['MINE01'], false, 1216)]) {
      const p = portsOf();
      expect(await bus.run(reserve, p, ctx)).toMatchObject({ status: 403, notice: { key: 'bus.verifyFirst' } });
      expect(p.up.addBusUser).not.toHaveBeenCalled();
    }
  });

  it('a back that is no whole bus link: broken (form) or 400 (JSON); bad ids: 400', async () => {
    for (const back of ['', 'https://evil.example/bus', '/bus', busPath.split('/').slice(0, -1).join('/'), '/IEAESearch/21308/MTMwOA/visitor']) {
      expect((await bus.run({ ...reserve, back }, portsOf(), await ctxOf(['MINE01']))).kind, back).toBe('broken');
      expect(jsonOf(await bus.run({ ...reserve, back }, portsOf(), await ctxOf(['MINE01'], true)), t)).toEqual({ status: 400, body: { code: 400, msg: 'bus.bad', data: null } });
    }
    for (const f of [{ ...reserve, stopId: '' }, { ...reserve, departureId: '9'.repeat(13) }, { action: 'cancel', back: busPath }, { action: 'x', back: busPath }]) {
      expect(await bus.run(f, portsOf(), await ctxOf(['MINE01']))).toMatchObject({ status: 400, notice: { key: 'bus.bad' } });
    }
  });

  it('goes back to the posted page on this site only', () => {
    const ctx = { origin: ORIGIN } as ActionContext;
    expect(bus.back({ back: busPath }, ctx)).toBe(busPath);
    expect(bus.back({ back: '//evil.example/x' }, ctx)).toBe('');
  });
});
