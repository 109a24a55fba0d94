import { describe, expect, it } from 'vitest';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { startPage } from '../../src/lib/page/load';
import { matchRoute } from '../../src/lib/core/routes';
import { errorOf, pageForm } from '../../src/lib/screens/form-state';
import { loadScreen } from '../../src/lib/screens';
import { contact, flash, NOW, ORIGIN, page, pathOf, ports, t } from './screens-helpers';

const SECRET = 's'.repeat(32);
const deps = { credential: async () => ({ kind: 'unknown' as const }), secret: SECRET };

describe('startPage (the pipeline’s first step, shared by the guard and the loader)', () => {
  it('matches the route once and reads the page as the guard does', async () => {
    const s = await startPage(new URL(`/ticket${pathOf(1308)}`, ORIGIN), undefined, SECRET, NOW);
    expect(s.match?.screen).toBe('ticket');
    expect(s.info).toMatchObject({ kind: 'ticket', expoId: 1308 });
    expect(s.key).toEqual({ expoId: 1308, fId: 21308, ty: 'visitor' });
    expect(s.contact).toBeNull();
  });

  it('verifies the contact cookie once; a bad one is no contact', async () => {
    const cookie = await signContact(contact(1308), SECRET, NOW);
    expect((await startPage(new URL(`/ticket${pathOf(1308)}`, ORIGIN), cookie, SECRET, NOW)).contact?.expoId).toBe(1308);
    expect((await startPage(new URL(`/ticket${pathOf(1308)}`, ORIGIN), `${cookie}x`, SECRET, NOW)).contact).toBeNull();
    expect(CONTACT_COOKIE).toBe('vc');
  });

  it('no route: no key, an "other" page', async () => {
    const s = await startPage(new URL('/nowhere/at/all/here', ORIGIN), undefined, SECRET, NOW);
    expect(s.match).toBeNull();
    expect(s.key).toBeNull();
  });
});

describe('pageForm (the flash read once: values, field errors, the notice)', () => {
  it('one rule for every message: the catalogue text with its vars, the upstream’s words under it', () => {
    const f = pageForm(
      flash('/x', {
        values: { a: '1' },
        error: { field: 'a', key: null, text: 'own words' },
        notice: { tone: 'info', key: 'n.key', vars: { n: 2 }, text: null },
      }),
      t,
    );
    expect(f.values).toEqual({ a: '1' });
    expect(errorOf(f, 'a')).toBe('own words');
    expect(errorOf(f, 'b')).toBeNull();
    expect(f.notice).toEqual({ tone: 'info', key: 'n.key', message: 'n.key{"n":2}' });
  });

  it('every failing field of a form post, in order', () => {
    const f = pageForm(flash('/x', { errors: [{ field: 'a', key: 'k.a', text: null }, { field: 'b', key: null, text: 'B' }] }), t);
    expect(f.errors).toEqual([{ field: 'a', message: 'k.a' }, { field: 'b', message: 'B' }]);
    expect(pageForm(null, t)).toEqual({ values: {}, errors: [], notice: null });
  });
});

describe('loadScreen (the loaders by route)', () => {
  it.each([
    [`/search${pathOf(1308)}`, 'search'],
    [`/applyList${pathOf(1308)}`, 'applyList'],
    [`/form${pathOf(1308)}`, 'form'],
    [`/seat${pathOf(1128)}`, 'seat'],
    ['/zuoweiSuccess', 'seatResult'],
    [`/ticket${pathOf(1308)}`, 'ticketList'],
    [`/ticketForm${pathOf(1308)}`, 'ticketForm'],
    [`/orderList${pathOf(1308)}`, 'orderList'],
    [`/orderDetails${pathOf(1308)}`, 'orderDetails'],
    [`/ticketSuccess${pathOf(1308)}`, 'ticketSuccess'],
    [pathOf(1500), 'home'],
  ])('%s → %s', async (path, kind) => {
    const d = await loadScreen(matchRoute(path), page(path), ports(), deps);
    expect(d?.kind).toBe(kind);
  });

  it('a landing is its `which` (no upstream call); no route has no data', async () => {
    expect(await loadScreen(matchRoute('/CMEF'), page('/CMEF'), ports(), deps)).toEqual({ kind: 'landing', which: 'register' });
    expect(await loadScreen(null, page('/x'), ports(), deps)).toBeNull();
  });
});
