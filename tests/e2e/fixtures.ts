/**
 * Shared helpers for the browser specs (tests/e2e/*.spec.ts): the demo pages of
 * functions/reference/SEED.md, the language cookie, the catalogue strings, the mode of the
 * running project (`js` or `nojs`, playwright.config.ts) and a no-JS lookup that yields a
 * credential page.
 *
 * How the specs run in parallel (playwright.config.ts), and what a new spec needs to know:
 *
 * - Every Playwright worker has a server and a database of its own (freshly migrated and
 *   seeded): `page`, `request`, `baseURL` and {@link baseUrl} all point at the worker's server.
 *   So a spec may use the seeded demo contacts (`one@demo.test` …), send codes and register
 *   as it likes: no other worker sees it. Import `test` from here, not from '@playwright/test':
 *   it is Playwright's, with each test's browser and `request` given an address of its own
 *   (`CF-Connecting-IP`, {@link visitorAddress}). The servers run with every abuse limit at the
 *   product's defaults (playwright.config.ts): a spec is a visitor, not a load test.
 * - Tests of one file are spread over the workers (`fullyParallel`), and the js and nojs runs of
 *   a test may land on different servers: a test must not rely on another test having run
 *   before it (on its server). A test that changes a seeded contact for good (completes its
 *   form, updates its registration) still uses a contact of its project (`…-js@` / `…-nojs@`),
 *   since both runs may share one server.
 * - Codes: read them from the dev outbox by contact and expo — {@link latestOutboxCode}
 *   (`/dev/outbox.json?to=<contact>&expoId=<expo>`), or lookup-helpers.ts `sendCode` /
 *   `readCode`, which take the expo from the lookup form — so a code sent to the same contact
 *   on another expo is never taken for this one.
 * - A test that only uses `request` (or no fixture), whose result cannot depend on the
 *   browser's JavaScript setting, is tagged `@http` (`test('…', { tag: '@http' }, …)`, or on its
 *   `test.describe`): it runs once, in the `http` project, instead of in `js` and in `nojs`.
 */
import { readFileSync } from 'node:fs';
import { expect, test as base, type APIRequestContext, type BrowserContext, type TestInfo } from '@playwright/test';
import { encodeId } from '../../src/lib/util/ids';
import { LANG_COOKIE, type Lang } from '../../src/lib/core/languages';

export { LANG_COOKIE };

/**
 * The address a test's visitor comes from, as Cloudflare would tell the Worker
 * (`CF-Connecting-IP`): one of 198.18.0.0/15 (the benchmarking range, never routed), from a hash
 * of the test, its project and its retry, so every test is a visitor of its own, as on a show
 * morning (docs/limits.md). `n` names another visitor of the same test.
 * @example visitorAddress(info) // '198.19.38.201'
 */
export function visitorAddress(info: TestInfo, n = 0): string {
  const key = `${info.testId}|${info.project.name}|${info.retry}|${n}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h >>>= 0;
  return `198.${18 + (h & 1)}.${(h >>> 1) & 255}.${(h >>> 9) & 255}`;
}

/**
 * The headers of a second visitor in a test (a context the test opens itself, which does not
 * get the test's own header): `n` ≥ 1 gives each its own address.
 * @example playwright.request.newContext({ baseURL, extraHTTPHeaders: visitorHeaders(info, 1) })
 */
export function visitorHeaders(info: TestInfo, n: number): Record<string, string> {
  return { 'cf-connecting-ip': visitorAddress(info, n) };
}

/**
 * An e-mail address of this test's own, known to no registration: for a test that sends a code
 * it never uses. A contact's unverified sends are a budget of their own (docs/limits.md), so a
 * seeded contact (`one@demo.test`) must only be sent codes that are then looked up with.
 */
export function visitorEmail(info: TestInfo, tag = ''): string {
  return `v${tag}-${visitorAddress(info).replaceAll('.', '-')}@demo.test`;
}

/** Playwright's `test`, each test's browser and `request` coming from {@link visitorAddress}. */
export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, info) => {
    await use({ ...extraHTTPHeaders, 'cf-connecting-ip': visitorAddress(info) });
  },
});
export type { Lang };

/** True in the `js` project, false in `nojs` (javaScriptEnabled: false). */
export function jsEnabled(info: TestInfo): boolean {
  return info.project.use.javaScriptEnabled !== false;
}

/** The base URL of the served Worker (playwright.config.ts `use.baseURL`). */
export function baseUrl(info: TestInfo): string {
  const url = info.project.use.baseURL;
  if (!url) throw new Error('playwright.config.ts must set use.baseURL');
  return url;
}

const catalogues = new Map<Lang, Record<string, string>>();

/** The catalogue of a language as the pages use it (src/i18n/<lang>.json). */
export function strings(lang: Lang): Record<string, string> {
  let cat = catalogues.get(lang);
  if (!cat) {
    const file = new URL(`../../src/i18n/${lang}.json`, import.meta.url);
    cat = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    catalogues.set(lang, cat);
  }
  return cat;
}

/** One catalogue string; throws on a missing key so a renamed key fails loudly. */
export function t(lang: Lang, key: string): string {
  const text = strings(lang)[key];
  if (text === undefined) throw new Error(`src/i18n/${lang}.json has no key ${key}`);
  return text;
}

/** The BCP 47 tag the pages put in `<html lang>` for each code (src/lib/core/languages.ts). */
export const HTML_LANG: Readonly<Record<Lang, string>> = {
  zh: 'zh-CN',
  en: 'en',
  thai: 'th',
  vn: 'vi',
  id: 'id',
  tw: 'zh-TW',
  ms: 'ms',
};

/** Sets the `_h5_lang` cookie in a browser context before a `goto` (as the language menu would). */
export async function setLangCookie(context: BrowserContext, lang: Lang, info: TestInfo): Promise<void> {
  await context.addCookies([{ name: LANG_COOKIE, value: lang, url: baseUrl(info) }]);
}

/** A lookup route `/{search}/{fId}/{encoded expoId}/{ty}` (DESIGN.md "URL parameters"). */
export function lookupPath(search: string, fId: number, expoId: number, ty = 'visitor'): string {
  return `/${search}/${fId}/${encodeId(expoId)}/${ty}`;
}

/** Demo lookup pages of the reference seed (functions/reference/SEED.md). */
export const PAGES = {
  /** expo 1308 (IEAE), the exhibitor customer site 10542 ('Exhibitor manual', bypass path) */
  ieaeExhibitor: lookupPath('IEAESearch', 10542, 1308),
  /** expo 1308 (IEAE), visitor url 21308 (customerWx 5959) */
  ieaeVisitor: lookupPath('IEAESearch', 21308, 1308),
  /** expo 1261 (new Thai, local language thai): 'Buyer Register' */
  thaiNew: lookupPath('ThaiNewSearch', 21261, 1261),
  /** expo 1108 (Indonesian), exhibitor url 8811 */
  indonesianExhibitor: lookupPath('IndonesianSearch', 8811, 1108),
  /** expo 1178 (Jakarta), phone mode with the country picker */
  jakartaPhone: `${lookupPath('JakartaSearch', 21178, 1178)}?mode=1`,
  /** expo 1317 (new Vietnam) */
  vietnamNew: lookupPath('vietnamNewSearch', 21317, 1317),
  /** expo 2001, the generic lookup screen */
  generic: lookupPath('search', 22001, 2001),
} as const;

/** What a lookup form posts besides the contact (the hidden fields of src/components/lookup/LookupForm.astro). */
export interface LookupTarget {
  expoId: number;
  urlId: number;
  ty: string;
  /** variant name ('' for the generic screens) */
  variant: string;
  f: string;
  /** the lookup page's own path: where a no-JS post comes back to */
  back: string;
}

/** Expo 1308's visitor url 21308 (IEAE), the default of {@link obtainCredentialPath}. */
export const IEAE_VISITOR: LookupTarget = {
  expoId: 1308,
  urlId: 21308,
  ty: 'visitor',
  variant: 'IEAE',
  f: '',
  back: PAGES.ieaeVisitor,
};

interface OutboxEntry {
  code: string;
  createdAt: string;
}

/**
 * The latest code the dev outbox holds for a contact (`/dev/outbox.json?to=`), or null; with
 * `expoId`, the latest one sent for that expo (`&expoId=`), so a code sent to the same contact
 * on another expo is never taken for it.
 */
export async function latestOutboxCode(request: APIRequestContext, to: string, expoId?: number): Promise<OutboxEntry | null> {
  const expo = expoId === undefined ? '' : `&expoId=${expoId}`;
  const res = await request.get(`/dev/outbox.json?to=${encodeURIComponent(to)}${expo}`);
  if (!res.ok()) return null;
  const body = (await res.json()) as Partial<OutboxEntry> | null;
  return body && typeof body.code === 'string' ? { code: body.code, createdAt: String(body.createdAt ?? '') } : null;
}

/**
 * Looks a contact up the way a browser without JavaScript does: a form post to
 * /api/send-code, the code read from the development outbox, a form post to /api/lookup.
 * Returns the `Location` of the lookup's 303 (a credential, list or form path).
 * Uses `request`'s own cookie jar; pass a fresh APIRequestContext for a clean one.
 */
export async function lookUpByEmail(
  request: APIRequestContext,
  email: string,
  target: LookupTarget = IEAE_VISITOR,
): Promise<string> {
  const page = {
    expoId: String(target.expoId),
    urlId: String(target.urlId),
    ty: target.ty,
    variant: target.variant,
    f: target.f,
    back: target.back,
  };
  const before = await latestOutboxCode(request, email, target.expoId);
  const sent = await request.post('/api/send-code', { form: { ...page, checkType: '2', email }, maxRedirects: 0 });
  expect(sent.status(), `send-code for ${email}: ${await sent.text()}`).toBe(303);
  const after = await latestOutboxCode(request, email, target.expoId);
  expect(after, `the dev outbox holds a code for ${email} (DEV_OUTBOX=1)`).not.toBeNull();
  expect(after, `send-code for ${email} added a new code to the outbox`).not.toEqual(before);
  const looked = await request.post('/api/lookup', {
    form: { ...page, checkType: '2', email, code: after?.code ?? '' },
    maxRedirects: 0,
  });
  expect(looked.status(), `lookup for ${email}: ${await looked.text()}`).toBe(303);
  const location = looked.headers()['location'];
  if (!location) throw new Error(`lookup for ${email} answered 303 without a Location`);
  return location;
}

/**
 * The path of a credential (success) page: a no-JS lookup of a demo contact with one
 * registration (default `one@demo.test` on expo 1308's visitor url 21308) → `/IEAESuccess/…`.
 */
export async function obtainCredentialPath(
  request: APIRequestContext,
  email = 'one@demo.test',
  target: LookupTarget = IEAE_VISITOR,
): Promise<string> {
  const location = await lookUpByEmail(request, email, target);
  const path = new URL(location, 'http://x').pathname;
  expect(path, `lookup of ${email} leads to a credential page`).toMatch(/^\/(?:[A-Za-z]+Success|success)\//);
  return location;
}

/** Expo 2002, generic, isOpenBusinessCard 1: its form renders the camera island for a verified contact. */
export const CARD_EXPO: LookupTarget = {
  expoId: 2002,
  urlId: 22002,
  ty: 'visitor',
  variant: '',
  f: '',
  back: `/search/22002/${encodeId(2002)}/visitor`,
};
