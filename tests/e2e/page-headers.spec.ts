/**
 * Issue 9's page headers through the built Worker (Astro renders pages only there):
 * Cache-Control and noindex by what a page shows (src/lib/page/policy.ts), Permissions-Policy
 * (camera only on the business-card form, src/lib/page/permissions-policy.ts), and the CSP's
 * `img-src` narrowed to this site, data: and the hosts of the page's own config
 * (src/lib/util/image-origins.ts) — with the banner of a home page still loading in Chromium.
 * Header checks use the request context (same in both projects); the browser check is @js.
 */
import { expect, type APIRequestContext, type APIResponse, type ConsoleMessage } from '@playwright/test';
import { encodeId } from '../../src/lib/util/ids';
import { CAMERA_PERMISSIONS_POLICY, DEFAULT_PERMISSIONS_POLICY } from '../../src/lib/page/permissions-policy';
import { IEAE_VISITOR, PAGES, baseUrl, lookUpByEmail, obtainCredentialPath, t, type LookupTarget, test, visitorHeaders, CARD_EXPO } from './fixtures';

const PRIVATE = 'private, no-store';
const PUBLIC = 'private, max-age=0, must-revalidate';

/** Expo 2001's home: a generic lookup whose banner has an image on https://images.example (SEED.md). */
const HOME_2001 = `/22001/${encodeId(2001)}/visitor`;
const IMAGE_HOST = 'https://images.example';


/** The CSP directives of a header value, by name. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = '', ...values]) => [name.toLowerCase(), values] as const),
  );
}

/** Asserts the policy of a page: Cache-Control, X-Robots-Tag and the robots meta agree. */
async function expectPolicy(res: APIResponse, personal: boolean): Promise<void> {
  const h = res.headers();
  const html = await res.text();
  const meta = /<meta name="robots" content="noindex"\s*\/?>/.test(html);
  if (personal) {
    expect.soft(h['cache-control'], 'Cache-Control').toBe(PRIVATE);
    expect.soft(h['x-robots-tag'], 'X-Robots-Tag').toBe('noindex');
    expect.soft(meta, '<meta name="robots" content="noindex">').toBe(true);
  } else {
    expect.soft(h['cache-control'], 'Cache-Control').toBe(PUBLIC);
    expect.soft(h['x-robots-tag'], 'X-Robots-Tag').toBeUndefined();
    expect.soft(meta, 'no robots meta').toBe(false);
  }
}

/** A no-JS lookup post with a malformed e-mail: the page comes back with the value flashed (src/lib/page/flash.ts). */
async function postBadEmail(request: APIRequestContext, target: LookupTarget = IEAE_VISITOR): Promise<string> {
  const res = await request.post('/api/send-code', {
    form: {
      expoId: String(target.expoId),
      urlId: String(target.urlId),
      ty: target.ty,
      variant: target.variant,
      f: target.f,
      back: target.back,
      checkType: '2',
      email: 'not-an-email',
    },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(303);
  const location = res.headers()['location'] ?? '';
  expect(location).toBe(target.back);
  return location;
}

test.describe('Cache-Control and noindex by page (issue 9 §1)', { tag: '@http' }, () => {
  const publicPages: ReadonlyArray<[string, string, number]> = [
    ['the root', '/', 200],
    ['the not-found page', '/no-such-page', 404],
    ['a credential path that does not parse (404 page)', '/IEAESuccess/x/y/z/1', 404],
    ['the generic lookup', PAGES.generic, 200],
    ['a variant lookup', PAGES.ieaeVisitor, 200],
    ['a home screen (variant lookup at the home URL)', `/21308/${encodeId(1308)}/visitor`, 200],
    ['a home screen (two tabs)', `/21177/${encodeId(1177)}/visitor`, 200],
    ['the fashion-show landing', '/AsiaFashionShow', 200],
  ];
  for (const [what, path, status] of publicPages) {
    test(`public: ${what} (${path})`, async ({ request }) => {
      const res = await request.get(path, { maxRedirects: 0 });
      expect(res.status()).toBe(status);
      await expectPolicy(res, false);
    });
  }

  test('personal: the credential page', async ({ request }) => {
    const res = await request.get(await obtainCredentialPath(request), { maxRedirects: 0 });
    expect(res.status()).toBe(200);
    await expectPolicy(res, true);
  });

  test('personal: the selection list', async ({ request }) => {
    const location = await lookUpByEmail(request, 'several@demo.test');
    expect(location).toMatch(/^\/applyList\//);
    const res = await request.get(location, { maxRedirects: 0 });
    expect(res.status()).toBe(200);
    await expectPolicy(res, true);
  });

  test('personal: the selection list without a verified contact (404) too', async ({ request }) => {
    const res = await request.get(`/applyList/21308/${encodeId(1308)}/visitor`, { maxRedirects: 0 });
    expect(res.status()).toBe(404);
    await expectPolicy(res, true);
  });

  test('personal: a registration form, with the verified contact and without', async ({ request, playwright }) => {
    const location = await lookUpByEmail(request, 'none@demo.test');
    expect(location).toMatch(/Form\//);
    const verified = await request.get(location, { maxRedirects: 0 });
    expect(verified.status()).toBe(200);
    await expectPolicy(verified, true);
    const fresh = await playwright.request.newContext({ baseURL: baseUrl(test.info()), extraHTTPHeaders: visitorHeaders(test.info(), 1) });
    try {
      await expectPolicy(await fresh.get(location, { maxRedirects: 0 }), true);
    } finally {
      await fresh.dispose();
    }
  });

  test('a lookup that shows flashed values is personal; once shown, the flash is gone and the page is public', async ({
    request,
  }) => {
    const back = await postBadEmail(request);
    const shown = await request.get(back, { maxRedirects: 0 });
    expect(shown.status()).toBe(200);
    expect(await shown.text()).toContain('not-an-email');
    await expectPolicy(shown, true);
    // The page cleared the flash (a Set-Cookie that must survive rendering: functions/middleware/whole-pages.ts).
    const again = await request.get(back, { maxRedirects: 0 });
    expect(await again.text()).not.toContain('not-an-email');
    await expectPolicy(again, false);
  });
});

test.describe('Permissions-Policy (issue 9 §2)', { tag: '@http' }, () => {
  test('pages, the API and static files deny the camera', async ({ request }) => {
    for (const path of ['/', PAGES.generic, HOME_2001, '/no-such-page', '/api/health', '/logo.jpg', '/favicon.svg']) {
      const res = await request.get(path, { maxRedirects: 0 });
      expect.soft(res.headers()['permissions-policy'], path).toBe(DEFAULT_PERMISSIONS_POLICY);
    }
  });

  test('the form with the business-card camera allows the camera to this origin', async ({ request }) => {
    const location = await lookUpByEmail(request, 'none@demo.test', CARD_EXPO);
    const res = await request.get(location, { maxRedirects: 0 });
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html, 'the camera island is rendered').toContain('CardCamera');
    expect(res.headers()['permissions-policy']).toBe(CAMERA_PERMISSIONS_POLICY);
    await expectPolicy(res, true);
  });

  test('a form without the camera (not verified, or no business card) denies it', async ({ request }) => {
    const cardFormUnverified = await request.get(`/form/22002/${encodeId(2002)}/visitor`, { maxRedirects: 0 });
    expect(cardFormUnverified.headers()['permissions-policy']).toBe(DEFAULT_PERMISSIONS_POLICY);
    const location = await lookUpByEmail(request, 'none@demo.test');
    const noCard = await request.get(location, { maxRedirects: 0 });
    expect(await noCard.text()).not.toContain('CardCamera');
    expect(noCard.headers()['permissions-policy']).toBe(DEFAULT_PERMISSIONS_POLICY);
  });
});

test.describe("CSP img-src: this site, data: and the page's own image hosts (issue 9 §3)", () => {
  test('a page whose config has an image on another host names that host, not https: wholesale', { tag: '@http' }, async ({
    request,
  }) => {
    for (const path of [HOME_2001, PAGES.generic]) {
      const csp = (await request.get(path)).headers()['content-security-policy'] ?? '';
      const img = directives(csp).get('img-src') ?? [];
      expect.soft(img, path).toEqual(["'self'", 'data:', IMAGE_HOST]);
    }
  });

  test('pages without organiser images allow only this site and data:', { tag: '@http' }, async ({ request }) => {
    for (const path of ['/', '/no-such-page', PAGES.ieaeVisitor, `/21308/${encodeId(1308)}/visitor`]) {
      const csp = (await request.get(path)).headers()['content-security-policy'] ?? '';
      expect.soft(directives(csp).get('img-src'), path).toEqual(["'self'", 'data:']);
      expect.soft(csp, path).not.toMatch(/\shttps?:(?:\s|;|$)/);
    }
  });

  test('@js the banner image on the config host loads without a CSP violation; another host is refused', async ({
    page,
  }) => {
    // The demo host does not exist: Chromium gets the site's logo for it. A request the CSP
    // refuses never reaches this route, so "fulfilled" proves the browser allowed it.
    const fulfilled: string[] = [];
    await page.route(`${IMAGE_HOST}/**`, async (route) => {
      fulfilled.push(route.request().url());
      const logo = await page.request.get('/logo.jpg');
      await route.fulfill({ status: 200, contentType: 'image/jpeg', body: await logo.body() });
    });
    const messages: ConsoleMessage[] = [];
    page.on('console', (m) => messages.push(m));
    const res = await page.goto(HOME_2001);
    expect(res?.status()).toBe(200);
    // The second banner slide is the config's https image: show it once the carousel is hydrated.
    const banner = page.getByRole('region', { name: t('zh', 'banner.label') });
    await expect(page.locator('astro-island[component-url*="Banner"]:not([ssr])').first()).toBeAttached();
    await banner.getByRole('button', { name: t('zh', 'banner.next') }).click();
    const img = banner.locator(`img[src="${IMAGE_HOST}/banner-2001-b.jpg"]`);
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(fulfilled).toContain(`${IMAGE_HOST}/banner-2001-b.jpg`);
    const problems = messages.filter((m) =>
      /Content Security Policy|Permissions-Policy|Permissions Policy/i.test(m.text()),
    );
    expect(problems.map((m) => m.text())).toEqual([]);

    // Any other https host is refused by the CSP (securitypolicyviolation, no request made).
    const refused = await page.evaluate(
      () =>
        new Promise<{ loaded: boolean; blocked: string | null }>((resolve) => {
          let blocked: string | null = null;
          document.addEventListener('securitypolicyviolation', (e) => (blocked = e.effectiveDirective), { once: true });
          const probe = new Image();
          probe.onload = () => resolve({ loaded: true, blocked });
          probe.onerror = () => setTimeout(() => resolve({ loaded: false, blocked }), 50);
          probe.src = 'https://elsewhere.example/x.png';
        }),
    );
    expect(refused).toEqual({ loaded: false, blocked: 'img-src' });
  });
});
