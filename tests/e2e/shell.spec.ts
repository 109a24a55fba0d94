/**
 * The app shell (spec §1 language, §2.3 catch-all, §2.5 shell and zoom rules) in both
 * projects: `js` and `nojs` (javaScriptEnabled: false). Each test asserts what its mode must
 * do; the language menu, the not-found page and the headers behave the same in both.
 */
import { expect, type APIResponse, type Page, type Request } from '@playwright/test';
import { HTML_LANG, LANG_COOKIE, PAGES, jsEnabled, obtainCredentialPath, setLangCookie, t, type Lang, test } from './fixtures';

const DAY_S = 24 * 60 * 60;
/** spec §1, §9: the language cookie lives 60 days */
const LANG_COOKIE_DAYS = 60;

/** The language menu: a navigation landmark named by app.language in the page's language. */
function langMenu(page: Page, lang: Lang) {
  return page.getByRole('navigation', { name: t(lang, 'app.language') });
}

/**
 * Chooses a language with the menu as a visitor at the current width would: at or below
 * 768 px the select and its button, above it the language's own button.
 */
async function chooseLanguage(page: Page, from: Lang, to: Lang, width: 'phone' | 'desktop'): Promise<void> {
  const menu = langMenu(page, from);
  if (width === 'phone') {
    await menu.getByRole('combobox', { name: t(from, 'app.language') }).selectOption(to);
    await menu.getByRole('button', { name: t(from, 'app.confirm') }).click();
  } else {
    const names: Record<Lang, string> = {
      zh: '中文',
      en: 'English',
      thai: 'ไทย',
      vn: 'Tiếng Việt',
      id: 'Bahasa Indonesia',
      tw: '繁體中文',
      ms: 'Bahasa Melayu',
    };
    await menu.getByRole('button', { name: names[to], exact: true }).click();
  }
}

/** The page shows `lang`: `<html lang>`, the lookup heading and the menu named in it. */
async function expectPageIn(page: Page, lang: Lang, path: string, headingKey: string): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path);
  await expect(page.getByRole('heading', { level: 1, name: t(lang, headingKey) })).toBeVisible();
  await expect(langMenu(page, lang)).toBeVisible();
}

/** The `_h5_lang` cookie holds `lang` and expires about 60 days from now. */
async function expectLangCookie(page: Page, lang: Lang): Promise<void> {
  const cookie = (await page.context().cookies()).find((c) => c.name === LANG_COOKIE);
  expect(cookie, `${LANG_COOKIE} cookie set`).toBeDefined();
  expect(cookie?.value).toBe(lang);
  expect(cookie?.path).toBe('/');
  const expected = Date.now() / 1000 + LANG_COOKIE_DAYS * DAY_S;
  expect(
    Math.abs((cookie?.expires ?? 0) - expected),
    `expires within a day of now + ${LANG_COOKIE_DAYS} days`,
  ).toBeLessThan(DAY_S);
}

test.describe('language cookie round trip (spec §1: _h5_lang, 60 days, form post → 303)', () => {
  const cases = [
    {
      what: 'new Thai lookup (zh, en, thai)',
      path: PAGES.thaiNew,
      heading: 'search.buyerTitle',
      trip: ['en', 'thai', 'zh'] as Lang[],
    },
    {
      // Its visitor url (customerWx 5959): the exhibitor url 10542 is forced to Chinese (spec §4; config-apply.spec.ts).
      what: 'IEAE visitor lookup (zh, en)',
      path: PAGES.ieaeVisitor,
      heading: 'search.buyerTitle',
      trip: ['en', 'zh'] as Lang[],
    },
  ];
  for (const c of cases) {
    for (const width of ['phone', 'desktop'] as const) {
      test(`${c.what}: ${width} menu switches the language and comes back to the same page`, async ({ page }) => {
        await page.setViewportSize(width === 'phone' ? { width: 390, height: 844 } : { width: 1024, height: 800 });
        await page.goto(c.path);
        await expectPageIn(page, 'zh', c.path, c.heading);
        // The menu offers Chinese, English and the event's local language only (spec §1).
        const offered =
          width === 'phone' ? langMenu(page, 'zh').getByRole('option') : langMenu(page, 'zh').getByRole('button');
        await expect(offered).toHaveCount(c.trip.length);
        let from: Lang = 'zh';
        for (const to of c.trip) {
          await chooseLanguage(page, from, to, width);
          await expectPageIn(page, to, c.path, c.heading);
          await expectLangCookie(page, to);
          if (width === 'desktop') {
            await expect(langMenu(page, to).getByRole('button', { pressed: true })).toHaveCount(1);
          } else {
            await expect(langMenu(page, to).getByRole('combobox')).toHaveValue(to);
          }
          from = to;
        }
      });
    }
  }

  test('POST /api/lang answers 303 to the page with the cookie (what the form does in either mode)', { tag: '@http' }, async ({
    request,
  }) => {
    const res = await request.post('/api/lang', { form: { lang: 'thai', back: PAGES.thaiNew }, maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers()['location']).toBe(PAGES.thaiNew);
    const setCookie = res.headersArray().find((h) => h.name.toLowerCase() === 'set-cookie')?.value ?? '';
    expect(setCookie).toMatch(new RegExp(`^${LANG_COOKIE}=thai;`));
    expect(setCookie).toMatch(new RegExp(`Max-Age=${LANG_COOKIE_DAYS * DAY_S}\\b`));
  });

  test('a foreign back link is not followed', { tag: '@http' }, async ({ request }) => {
    const res = await request.post('/api/lang', {
      form: { lang: 'en', back: 'https://evil.example/' },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(303);
    expect(res.headers()['location']).not.toContain('evil.example');
  });
});

test.describe('not-found page (spec §2.3 catch-all): 404 in the cookie language', () => {
  const paths = [
    ['an unknown path', '/no-such-page'],
    ['an unknown variant', '/NopeSearch/1/MTMwOA/x'],
    ['a bad eid (not base64)', '/IEAESearch/10542/!!!/visitor'],
    ['a bad eid (not a number)', '/IEAESearch/10542/YWJj/visitor'],
    ['a malformed credential path', '/IEAESuccess/x/y/z/1'],
  ] as const;
  for (const [what, path] of paths) {
    for (const lang of ['zh', 'en', 'thai'] as const) {
      test(`${what} (${path}) in ${lang}`, async ({ page, context }) => {
        if (lang !== 'zh') await setLangCookie(context, lang, test.info());
        const res = await page.goto(path);
        expect(res?.status()).toBe(404);
        expect(res?.headers()['content-type']).toBe('text/html; charset=utf-8');
        await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
        await expect(page.getByRole('heading', { level: 1, name: t(lang, 'notFound.title') })).toBeVisible();
        await expect(page.getByRole('link', { name: t(lang, 'notFound.home') })).toHaveAttribute('href', '/');
      });
    }
  }
});

/** Collects the script files the page requests while `run` runs. */
async function scriptRequests(page: Page, run: () => Promise<unknown>): Promise<string[]> {
  const urls: string[] = [];
  const onRequest = (r: Request) => {
    if (r.resourceType() === 'script') urls.push(r.url());
  };
  page.on('request', onRequest);
  try {
    await run();
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('request', onRequest);
  }
  return urls;
}

test.describe('zoom rules (spec §2.5: pinch and ctrl-wheel zoom are blocked)', () => {
  for (const path of ['/', PAGES.ieaeExhibitor, '/no-such-page']) {
    test(`${path}: pinch zoom blocked by touch-action; ctrl+wheel, ctrl+key and gestures cancelled with JS`, async ({
      page,
    }) => {
      const js = jsEnabled(test.info());
      const scripts = await scriptRequests(page, () => page.goto(path));
      // Pinch zoom is blocked by CSS (works with JS off too), not by a viewport that axe's
      // meta-viewport rule (WCAG 1.4.4) forbids.
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).touchAction)).toBe('pan-x pan-y');
      const content = (await page.locator('meta[name="viewport"]').getAttribute('content')) ?? '';
      expect(content).toContain('width=device-width');
      if (js) {
        const result = await page.evaluate(() => {
          const wheel = (ctrlKey: boolean) => {
            const e = new WheelEvent('wheel', { ctrlKey, deltaY: -100, cancelable: true, bubbles: true });
            document.body.dispatchEvent(e);
            return e.defaultPrevented;
          };
          const key = (k: string, ctrlKey: boolean) => {
            const e = new KeyboardEvent('keydown', { key: k, ctrlKey, cancelable: true, bubbles: true });
            document.body.dispatchEvent(e);
            return e.defaultPrevented;
          };
          const gesture = () => {
            // Safari's pinch event; other engines have no constructor for it, a plain Event suffices.
            const e = new Event('gesturestart', { cancelable: true, bubbles: true });
            document.body.dispatchEvent(e);
            return e.defaultPrevented;
          };
          return {
            ctrlWheel: wheel(true),
            plainWheel: wheel(false),
            ctrlPlus: key('+', true),
            plainPlus: key('+', false),
            gesture: gesture(),
          };
        });
        expect(result).toEqual({ ctrlWheel: true, plainWheel: false, ctrlPlus: true, plainPlus: false, gesture: true });
      } else {
        // Without JavaScript nothing can cancel events: touch-action is the whole rule, and
        // the browser loads no script file at all. A lookup page names its islands' module
        // (issue 31), which a browser without JavaScript never fetches.
        expect(scripts).toEqual([]);
        await expect(page.locator('script[src]:not([type="module"])')).toHaveCount(0);
      }
    });
  }
});

test.describe('a page without interaction ships no JavaScript file', () => {
  for (const path of ['/', '/no-such-page']) {
    test(`${path}: no <script src>, no island, no script request`, async ({ page, request }) => {
      const scripts = await scriptRequests(page, () => page.goto(path));
      expect(scripts).toEqual([]);
      await expect(page.locator('script[src]')).toHaveCount(0);
      await expect(page.locator('astro-island')).toHaveCount(0);
      await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);
      // The served HTML itself, not just the DOM: only the small inline zoom guard.
      const html = await (await request.get(path)).text();
      expect(html).not.toMatch(/<script[^>]*\ssrc=/i);
      expect(html).not.toContain('<astro-island');
      const inline = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1] ?? '');
      for (const body of inline) {
        expect(body.length, 'inline script is small (the zoom guard)').toBeLessThan(2048);
        expect(body).not.toMatch(/\bimport\s*\(|\bimport\s+["'{*]/);
      }
    });
  }
});

type Kind = 'page' | 'other';
interface RouteCase {
  name: string;
  kind: Kind;
  /** Cache-Control must be no-store (/api/*, /custom/*, /dev/*) */
  noStore: boolean;
  status: number;
  send: (request: import('@playwright/test').APIRequestContext) => Promise<APIResponse>;
}

const ROUTES: RouteCase[] = [
  { name: 'GET / (page)', kind: 'page', noStore: false, status: 200, send: (r) => r.get('/', { maxRedirects: 0 }) },
  {
    name: `GET ${PAGES.ieaeExhibitor} (lookup page)`,
    kind: 'page',
    noStore: false,
    status: 200,
    send: (r) => r.get(PAGES.ieaeExhibitor, { maxRedirects: 0 }),
  },
  {
    name: 'GET a credential page (after a no-JS lookup)',
    kind: 'page',
    noStore: false,
    status: 200,
    send: async (r) => r.get(await obtainCredentialPath(r), { maxRedirects: 0 }),
  },
  {
    name: 'GET /no-such-page (404 page)',
    kind: 'page',
    noStore: false,
    status: 404,
    send: (r) => r.get('/no-such-page', { maxRedirects: 0 }),
  },
  {
    name: 'GET /IEAESuccess/x/y/z/1 (credential-less 404)',
    kind: 'page',
    noStore: false,
    status: 404,
    send: (r) => r.get('/IEAESuccess/x/y/z/1', { maxRedirects: 0 }),
  },
  {
    name: 'GET /api/health',
    kind: 'other',
    noStore: true,
    status: 200,
    send: (r) => r.get('/api/health', { maxRedirects: 0 }),
  },
  {
    name: 'POST /api/lang (303)',
    kind: 'other',
    noStore: true,
    status: 303,
    send: (r) => r.post('/api/lang', { form: { lang: 'en', back: '/' }, maxRedirects: 0 }),
  },
  {
    name: 'GET /favicon.svg (static file)',
    kind: 'other',
    noStore: false,
    status: 200,
    send: (r) => r.get('/favicon.svg', { maxRedirects: 0 }),
  },
  {
    name: 'GET a bundled /_astro/ script (static file)',
    kind: 'other',
    noStore: false,
    status: 200,
    send: async (r) => {
      const html = await (await r.get(PAGES.ieaeExhibitor)).text();
      // an island's component (the lookup islands' module, issue 31), or a page's module script
      const src = /(?:src|component-url)="(\/_astro\/[^"]+\.js)"/.exec(html)?.[1];
      if (!src) throw new Error(`no bundled script in ${PAGES.ieaeExhibitor}`);
      return r.get(src, { maxRedirects: 0 });
    },
  },
  {
    name: 'GET /dev/outbox',
    kind: 'other',
    noStore: true,
    status: 200,
    send: (r) => r.get('/dev/outbox', { maxRedirects: 0 }),
  },
  {
    name: 'GET /custom/CustomerUserInfo/selectAESKey (reference upstream)',
    kind: 'other',
    noStore: true,
    status: 200,
    send: (r) => r.get('/custom/CustomerUserInfo/selectAESKey', { headers: { expoId: '1308' }, maxRedirects: 0 }),
  },
];

/** The CSP directives of a header value, by name. */
function directives(csp: string): Map<string, string> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name.toLowerCase(), values.join(' ')] as const;
      }),
  );
}

test.describe('security headers on every route', { tag: '@http' }, () => {
  for (const route of ROUTES) {
    test(route.name, async ({ request }) => {
      const res = await route.send(request);
      expect(res.status()).toBe(route.status);
      const h = res.headers();
      // Soft: a failure lists every missing or wrong header of the route at once.
      const csp = h['content-security-policy'];
      expect.soft(csp, 'Content-Security-Policy').toBeTruthy();
      const d = directives(csp ?? '');
      expect.soft(d.get('base-uri'), "CSP base-uri 'none'").toBe("'none'");
      expect.soft(d.has('frame-ancestors'), 'CSP frame-ancestors').toBe(true);
      if (route.kind === 'page') {
        expect.soft(d.get('object-src'), "CSP object-src 'none'").toBe("'none'");
        expect.soft(d.get('form-action'), "CSP form-action 'self'").toBe("'self'");
        expect.soft(h['content-type'], 'Content-Type').toBe('text/html; charset=utf-8');
      } else {
        expect.soft(d.get('default-src'), "CSP default-src 'none'").toBe("'none'");
      }
      expect.soft(h['strict-transport-security'] ?? '', 'Strict-Transport-Security').toMatch(/max-age=\d{7,}/);
      expect.soft(h['x-content-type-options'], 'X-Content-Type-Options').toBe('nosniff');
      expect.soft(h['referrer-policy'], 'Referrer-Policy').toBeTruthy();
      if (route.noStore) expect.soft(h['cache-control'], 'Cache-Control').toBe('no-store');
      if (/^text\/html/i.test(h['content-type'] ?? '')) {
        expect.soft(h['content-type']?.toLowerCase(), 'HTML is UTF-8').toContain('charset=utf-8');
      }
    });
  }
});

/**
 * Spec §8, §9: an island whose chunk fails (the network) or has not come after the chunk load
 * timeout (120 s; here shortened through `window.chunkLoadTimeoutMs`, README "Tests") shows the
 * catalogue message with a retry that loads the page again, and the server-rendered form keeps
 * working as a plain form post: no dead button.
 */
test.describe('an island whose chunk does not load', () => {
  const LOOKUP = PAGES.generic;
  // the lookup islands' one module (issue 31: the form, the send-code button, the selection popup)
  const CHUNK = /\/_astro\/lookup-islands\.[^/]*\.js/;

  test('@js the chunk fails: the message and a retry; the form still posts', async ({ page }) => {
    await page.route(CHUNK, (route) => route.abort('internetdisconnected'));
    await page.goto(LOOKUP);
    const lang: Lang = 'zh';
    const message = page.locator('#chunk-fail');
    await expect(message).toBeVisible();
    await expect(message).toHaveAttribute('role', 'alert');
    await expect(message).toContainText(t(lang, 'error.chunkLoad'));
    await expect(message.getByRole('link', { name: t(lang, 'error.retry') })).toHaveAttribute('href', LOOKUP);
    await expect(page.locator('[data-lookup]:not([data-enhanced])')).toBeAttached();
    // The send-code button of the islands never hydrated posts the form as it would without JavaScript.
    const email = `chunk-${Date.now().toString(36)}@demo.test`;
    await page.getByLabel(t(lang, 'search.email'), { exact: true }).fill(email);
    await page.getByRole('button', { name: t(lang, 'search.sendCode') }).click();
    await expect(page.getByText(t(lang, 'search.codeSentTo').replace('{{contact}}', email))).toBeVisible();
    await expect(page.getByLabel(t(lang, 'search.email'), { exact: true })).toHaveValue(email);
  });

  test('@js the chunk never comes: the message once the timeout has passed', async ({ page }) => {
    await page.addInitScript(() => {
      (window as { chunkLoadTimeoutMs?: number }).chunkLoadTimeoutMs = 1500;
    });
    await page.route(CHUNK, () => new Promise<void>(() => undefined));
    // a module script that never comes holds the load event back: wait for the response only
    await page.goto(LOOKUP, { waitUntil: 'commit' });
    await expect(page.locator('#chunk-fail')).toBeHidden();
    await expect(page.locator('#chunk-fail')).toBeVisible();
  });
});
