import { describe, expect, it } from 'vitest';
import { checkPledgeTicket, needsPledge, PLEDGE_TICKET_MAX_AGE_MS, pledgeTicket, readPledged, signPledged } from '../../src/lib/seat/pledge';

const SECRET = 'unit-test-secret-0123456789';

describe('pledge timestamp rule (spec §2.5, §9: 5 s)', () => {
  it('is refused before 5 s with the wait, accepted from 5 s', async () => {
    const t0 = 1_700_000_000_000;
    const ticket = await pledgeTicket(1197, t0, SECRET);
    expect(await checkPledgeTicket(ticket, 1197, t0 + 100, SECRET)).toEqual({ kind: 'early', waitS: 5 });
    expect(await checkPledgeTicket(ticket, 1197, t0 + 4_001, SECRET)).toEqual({ kind: 'early', waitS: 1 });
    expect(await checkPledgeTicket(ticket, 1197, t0 + 5_000, SECRET)).toEqual({ kind: 'ok' });
  });

  it('refuses a forged, altered, other-expo, future or stale ticket', async () => {
    const t0 = 1_700_000_000_000;
    const ticket = await pledgeTicket(1197, t0, SECRET);
    expect(await checkPledgeTicket(ticket, 2012, t0 + 6_000, SECRET)).toEqual({ kind: 'bad' });
    expect(await checkPledgeTicket(ticket.replace(String(t0), String(t0 - 9_000)), 1197, t0 + 1_000, SECRET)).toEqual({ kind: 'bad' });
    expect(await checkPledgeTicket(await pledgeTicket(1197, t0, 'another-secret-0123456789'), 1197, t0 + 6_000, SECRET)).toEqual({ kind: 'bad' });
    expect(await checkPledgeTicket(ticket, 1197, t0 - 1, SECRET)).toEqual({ kind: 'bad' });
    expect(await checkPledgeTicket(ticket, 1197, t0 + PLEDGE_TICKET_MAX_AGE_MS + 1, SECRET)).toEqual({ kind: 'bad' });
    expect(await checkPledgeTicket('nonsense', 1197, t0, SECRET)).toEqual({ kind: 'bad' });
  });

  it('the visit cookie names the expos pledged; a forged one names none', async () => {
    const v = await signPledged([1197, 2012, 1197], SECRET);
    expect(await readPledged(v, SECRET)).toEqual([1197, 2012]);
    expect(await readPledged(v.replace(/^[^.]+/, 'MTIzNA'), SECRET)).toEqual([]);
    expect(await readPledged(undefined, SECRET)).toEqual([]);
  });

  it('healthPledge 1 (or "1") asks for the pledge', () => {
    expect(needsPledge({ healthPledge: 1 })).toBe(true);
    expect(needsPledge({ healthPledge: '1' })).toBe(true);
    expect(needsPledge({ healthPledge: 0 })).toBe(false);
    expect(needsPledge(null)).toBe(false);
  });
});
