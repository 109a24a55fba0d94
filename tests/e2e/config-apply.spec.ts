/**
 * Spec §4 "Config application" on routes that are not the home (issue 10): the page loader
 * (src/middleware.ts) applies the organiser's config the same way on every screen. One test per
 * rule, on a lookup, a form or a credential page. HTTP only: the rules are server-rendered.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { HTML_LANG, LANG_COOKIE, lookupPath, t, type Lang, test } from './fixtures';
import { caseOf, credentialPath, eid } from './lookup-helpers';

async function html(request: APIRequestContext, path: string, lang: Lang | null): Promise<string> {
  const res = await request.get(path, { headers: lang ? { cookie: `${LANG_COOKIE}=${lang}` } : {}, maxRedirects: 0 });
  expect(res.status(), `${path} renders`).toBe(200);
  return res.text();
}
const htmlLang = (page: string) => /<html lang="([^"]+)"/.exec(page)?.[1];
const title = (page: string) => /<title>([^<]*)<\/title>/.exec(page)?.[1];
const IEAE = caseOf('IEAE');
const ZHANG = 'IWHBZIMYEOZETLFI';

test.describe('spec §4 config application on routes other than the home', { tag: '@http' }, () => {
  test('expo 1308 forces Chinese on its lookup (config 6310), whatever the cookie; its 5959 url keeps the visitor language', async ({ request }) => {
    const forced = await html(request, lookupPath('IEAESearch', 10542, 1308), 'en');
    expect(htmlLang(forced)).toBe(HTML_LANG.zh);
    expect(forced).toContain(t('zh', 'search.exhibitorManual'));
    const visitor = await html(request, lookupPath('IEAESearch', 21308, 1308), 'en');
    expect(htmlLang(visitor)).toBe(HTML_LANG.en);
  });

  test('expo 1308 forces Chinese on a credential page read through the forced url', async ({ request }) => {
    const page = await html(request, credentialPath(IEAE, ZHANG, 10542), 'thai');
    expect(htmlLang(page)).toBe(HTML_LANG.zh);
    expect(page).toContain(t('zh', 'success.title'));
  });

  test('signType 2 forces English on the lookup and the form (2002)', async ({ request }) => {
    for (const path of [lookupPath('search', 22002, 2002), lookupPath('form', 22002, 2002)]) {
      expect(htmlLang(await html(request, path, 'zh')), path).toBe(HTML_LANG.en);
    }
  });

  test('signType 4 outside the all-expo list with languageType 1 gives Chinese (1216 lookup)', async ({ request }) => {
    expect(htmlLang(await html(request, lookupPath('search', 21216, 1216), 'en'))).toBe(HTML_LANG.zh);
  });

  test('the document title is the organiser formTitle on a lookup, a form and a credential page', async ({ request }) => {
    expect(title(await html(request, lookupPath('search', 22005, 2005), null))).toBe('已结束的展会 观众预登记');
    expect(title(await html(request, lookupPath('form', 22005, 2005), null))).toBe('已结束的展会 观众预登记');
    expect(title(await html(request, credentialPath(IEAE, ZHANG), null))).toBe('IEAE 观众预登记');
  });

  test('the page image (pcBackground, else headImgUrl, else showLogo) on a credential and a form page', async ({ request }) => {
    for (const path of [credentialPath(IEAE, ZHANG), lookupPath('form', 22005, 2005)]) {
      expect(await html(request, path, null), path).toMatch(/<div class="hero[^"]*"[^>]*>\s*<img src="\/logo\.jpg"/);
    }
  });

  test('an ended expo shows its notice without a confirm button on the lookup and the form (2005)', async ({ request }) => {
    for (const path of [lookupPath('search', 22005, 2005), lookupPath('form', 22005, 2005)]) {
      const page = await html(request, path, 'en');
      expect(page, path).toMatch(new RegExp(`role="alert"[^>]*>\\s*${t('en', 'error.expoOver')}`));
    }
    // A running expo shows none.
    expect(await html(request, lookupPath('search', 22002, 2002), 'en')).not.toContain(t('en', 'error.expoOver'));
  });

  test('expo 1042 (ended) goes to its form from the lookup, and the form itself renders', async ({ request }) => {
    const lookup = await request.get(lookupPath('search', 21042, 1042), { maxRedirects: 0 });
    expect(lookup.status()).toBe(302);
    expect(lookup.headers()['location']).toBe(`/form/21042/${eid(1042)}/visitor`);
    expect((await request.get(`/form/21042/${eid(1042)}/visitor`, { maxRedirects: 0 })).status()).toBe(200);
  });
});
