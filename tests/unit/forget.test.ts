/** "Forget this device" (issue 19 item 3): every cookie of ours, and where the visitor lands. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLEAR_SITE_DATA, FORGET_COOKIES, forgetTarget, gateCookiesOf } from '../../src/lib/security/forget';
import { gateCookieName } from '../../src/lib/gate/keys';
import { LANG_COOKIE } from '../../src/lib/core/languages';
import { routePath } from '../../src/lib/core/routes';
import { variantByExpoId } from '../../src/lib/core/variants';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|astro)$/.test(name) ? [path] : [];
  });
}

describe('the cookies forgotten', () => {
  it('are every cookie the code sets, except the language', () => {
    // Every `…_COOKIE = '…'` constant of the Worker and the pages: a new cookie joins the table or fails here.
    const names = new Set<string>();
    for (const file of [...sources('src'), ...sources('functions')]) {
      for (const m of readFileSync(file, 'utf8').matchAll(/export const [A-Z_]*COOKIE = '([^']+)'/g)) names.add(m[1] ?? '');
    }
    expect(names.size).toBeGreaterThanOrEqual(9);
    const forgotten = new Set([...FORGET_COOKIES.map((c) => c.name), 'draft']);
    for (const name of names) if (name !== LANG_COOKIE) expect(forgotten.has(name), `cookie ${name}`).toBe(true);
    expect(forgotten.has(LANG_COOKIE)).toBe(false);
  });
  it('the gate keys the device holds: every gate_{expoId} cookie of the request, on /, nothing that only looks like one', () => {
    expect(gateCookiesOf(['vc', gateCookieName(1308), gateCookieName(1106), 'gate_', 'gate_x', 'gate_01308', 'xgate_1308', `gate_${'9'.repeat(13)}`]).map((c) => `${c.name} ${c.path}`)).toEqual(['gate_1308 /', 'gate_1106 /']);
    expect(gateCookiesOf([])).toEqual([]);
  });
  it('Clear-Site-Data names the cache and the storage, not the registrable domain\'s cookies', () => {
    expect(CLEAR_SITE_DATA).toBe('"cache", "storage"');
  });
});

describe('forgetTarget', () => {
  const ieae = variantByExpoId(1308);
  const ids = { fId: 21308, expoId: 1308, ty: 'visitor' };
  it('from a lookup, a list or a credential: that expo\'s lookup and its forms\' draft paths', () => {
    const lookup = routePath({ screen: 'search', variant: ieae, params: ids });
    expect(forgetTarget(lookup).lookup).toBe(lookup);
    expect(forgetTarget(`${lookup}?f=x`).lookup).toBe(lookup);
    const credential = routePath({ screen: 'credential', variant: ieae, params: { urlId: 21308, euCode: 'ABC', expoId: 1308, fId: 21308 } });
    const fromCredential = forgetTarget(`${credential}?f=`);
    expect(fromCredential.lookup).toBe(lookup);
    expect(fromCredential.draftPaths).toContain(routePath({ screen: 'form', route: ieae?.form ?? '', params: ids }));
    expect(fromCredential.draftPaths).toContain(routePath({ screen: 'form', route: 'form', params: { ...ids, ty: '' } }));
    const list = forgetTarget(routePath({ screen: 'applyList', params: ids }));
    expect(list.lookup).toBe(routePath({ screen: 'search', variant: null, params: ids }));
    expect(list.draftPaths).toContain(routePath({ screen: 'form', route: ieae?.form ?? '', params: ids }));
    const form = routePath({ screen: 'form', route: ieae?.form ?? '', params: ids });
    expect(forgetTarget(form)).toMatchObject({ lookup, draftPaths: expect.arrayContaining([form]) as string[] });
    expect(forgetTarget(form).drafts).toContainEqual(expect.objectContaining({ name: 'draft', path: form }));
  });
  it("the buyer form's draft too, from its purchase pages and from the expo's other pages (issue 30: it keeps what a lapsed proof or a refusal left)", () => {
    const buyerForm = routePath({ screen: 'ticket', which: 'ticketForm', params: ids });
    for (const from of [`${buyerForm}?ticketId=2`, routePath({ screen: 'ticket', which: 'orderList', params: ids }), routePath({ screen: 'search', variant: ieae, params: ids })]) {
      expect(forgetTarget(from).draftPaths, from).toContain(buyerForm);
    }
  });
  it('from anything else: no lookup, no draft', () => {
    for (const back of [null, '', '/', '/nowhere/at/all', '/CMEF', 'https://evil.example/IEAESearch/21308/MTMwOA/visitor']) {
      expect(forgetTarget(back), String(back)).toEqual({ lookup: null, draftPaths: [], drafts: [] });
    }
  });
});
