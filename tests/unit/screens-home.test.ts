import { describe, expect, it } from 'vitest';
import { loadApplyList } from '../../src/lib/screens/apply-list';
import { loadHome } from '../../src/lib/screens/home';
import { contact, ok, page, paramsOf, pathOf, ports } from './screens-helpers';

describe('loadHome', () => {
  it('the buttons home asks for the ticket list: a non-empty one shows the ticket lookup', async () => {
    const config = { customerWx: { signType: 4 } };
    const p = ports({ selectUrlsTicketList: ok([{ id: 1 }]) as never });
    const d = await loadHome(page(pathOf(1500), { config }), p, paramsOf(1500));
    expect(d.screen.kind).toBe('buttons');
    expect(d.showTicket).toBe(true);
    expect(d.lookup).toBeNull();
  });

  it('a generic lookup home renders the lookup with the home’s share tags and no hero image', async () => {
    const p = ports();
    const d = await loadHome(page(pathOf(1500), { config: { customerWx: { signType: 1 } } }), p, paramsOf(1500));
    expect(d.lookup?.kind).toBe('search');
    expect(d.lookup?.share).toBe(d.share);
    expect(d.lookup?.image).toBeNull();
    expect(p.selectUrlsTicketList).not.toHaveBeenCalled();
  });
});

describe('loadHome: the seat expos (spec §2.4)', () => {
  it('1128 and 1235 (config 5413): the home is the seat lookup itself, not a link to it', async () => {
    for (const [expoId, wxId] of [[1128, null], [1235, 5413]] as const) {
      const p = ports();
      const d = await loadHome(page(pathOf(expoId), { config: { customerWx: wxId ? { id: wxId } : {} } }), p, paramsOf(expoId));
      expect(d.screen.kind).toBe('seat');
      expect(d.seat).toMatchObject({ kind: 'seat', status: 200, back: pathOf(expoId) });
      expect(d.lookup).toBeNull();
      expect(p.pageActivityType).toHaveBeenCalledWith({ expoId });
    }
  });

  it('any other home carries no seat screen', async () => {
    const d = await loadHome(page(pathOf(1500), { config: { customerWx: { signType: 1 } } }), ports(), paramsOf(1500));
    expect(d.seat).toBeNull();
  });
});

describe('loadApplyList', () => {
  it('the verified contact’s rows of this expo; none is a 404', () => {
    const list = [{ e: 'EU1', n: 'Ann', c: 0 }] as never;
    expect(loadApplyList(page(`/applyList${pathOf(1308)}`, { contact: contact(1308, { list }) }), paramsOf(1308)).rows).toHaveLength(1);
    expect(loadApplyList(page(`/applyList${pathOf(1308)}`, { contact: contact(1200, { list }) }), paramsOf(1308)).status).toBe(404);
  });
});
