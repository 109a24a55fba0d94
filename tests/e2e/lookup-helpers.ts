/**
 * Shared steps of the lookup browser specs (lookup.spec.ts, lookup-a11y.spec.ts, budgets.spec.ts):
 * the variants of spec §2.2 with their demo contacts (functions/reference/SEED.md), the
 * lookup form driven through role and label locators, the dev outbox, and the QR decoder.
 *
 * Every step works in both projects (playwright.config.ts `js` and `nojs`): with JavaScript
 * the lookup islands are hydrated first (client:idle) so a click is the islands', not the plain form's.
 */
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { HTML_LANG, jsEnabled, latestOutboxCode, strings, type Lang, test } from './fixtures';

/** An id as the URLs carry it: base64url of the decimal text, no padding (1308 → MTMwOA). */
export function eid(n: number | string): string {
  return Buffer.from(String(n), 'utf8').toString('base64url');
}

/** The inverse of {@link eid}. */
export function uneid(segment: string): string {
  return Buffer.from(segment, 'base64url').toString('utf8');
}

/** True when the running project has JavaScript on. */
export function js(): boolean {
  return jsEnabled(test.info());
}

/** One demo registration as the seed holds it (functions/reference/seed/0001_demo.sql). */
export interface Rec {
  name: string;
  /** the selection-list label in English (spec §2.1: class name, ticketName for class 8, short euDefine prefix) */
  label: string;
  euCode: string;
  /** awaiting review: the credential shows its state and what comes next, no code or QR for the gate */
  review?: true;
}

/** A variant of spec §2.2 (or the generic /search screen) and what its demo contacts show. */
export interface Case {
  /** variant name, '' for the generic screen */
  name: string;
  expoId: number;
  /** the visitor url id (20000 + expoId) */
  fId: number;
  search: string;
  form: string;
  /** where zero records finally land: the form route, unless the §4 guard sends it on (an activity is set → /proving) */
  formLanding: string;
  success: string;
  phone: boolean;
  /** one@demo.test's record */
  one: Rec;
  /** several@demo.test's records as listed (after the variant's filter), or null when the seed has none by e-mail */
  several: Rec[] | null;
}

const V = (
  name: string,
  expoId: number,
  phone: boolean,
  one: Rec,
  several: Rec[] | null,
): Case => ({
  name,
  expoId,
  fId: 20000 + expoId,
  search: `${name}Search`,
  form: `${name}Form`,
  formLanding: `${name}Form`,
  success: `${name}Success`,
  phone,
  one,
  several,
});

/** Every variant of spec §2.2 in the spec's own order of the task list, then the generic /search screen. */
export const CASES: readonly Case[] = [
  V('IEAE', 1308, true, { name: '张一', label: 'Registered visitor', euCode: 'IWHBZIMYEOZETLFI' }, [
    // spec §2.2: the earliest (first of a tie) plus every class 3; the class 2 record and the tie's second are not listed
    { name: '李二', label: 'Registered visitor', euCode: 'F5IP7DURIP7EXQPG' },
    { name: '李二', label: '贵宾 | VIP/Guest', euCode: 'MK3QQYYA5EAHRO4B' },
    { name: '李二', label: 'VIP/Guest', euCode: 'ZC5VIZ6UO7F3GFTP' },
  ]),
  V('Indonesian', 1108, false, { name: 'Budi Satu', label: 'Registered visitor', euCode: 'TSKAHAV23BIN6UJL' }, [
    { name: 'Sari Banyak', label: 'Registered visitor', euCode: '5MHTZ4G4WFGLNCI3' },
    { name: 'Sari Banyak', label: 'Press | Media', euCode: 'EIGLATRF42O3RDBK' },
  ]),
  // 1261's several are by phone (+66800000021): see PHONE_SEVERAL
  V('ThaiNew', 1261, true, { name: 'Somchai One', label: 'Registered visitor', euCode: 'DR6AF7TP6TXO5UXW' }, null),
  V('Maylaysia', 1316, true, { name: 'Ahmad One', label: 'Registered visitor', euCode: 'AYUJBHSPXG76SP2N' }, [
    { name: 'Aisyah Several', label: 'Registered visitor', euCode: 'MAWMDYJS75JSTGJV' },
    { name: 'Aisyah Several', label: 'Volunteer Team A | Volunteer', euCode: 'ZCGYZSTGJN6VW2PE' },
  ]),
  V('Asia', 1312, true, { name: 'Nguyen One', label: 'Registered visitor', euCode: '67H4THDGSIUIFB7O' }, [
    { name: 'Tran Several', label: 'Registered visitor', euCode: 'FIDJ2OMMSYLJ37YP' },
    // a 34-character euDefine is not a prefix
    { name: 'Tran Several', label: 'VIP/Guest', euCode: 'UU7Q3EEMJZ57PR2E' },
  ]),
  V('InAsia', 1313, false, { name: 'Dewi One', label: 'Registered visitor', euCode: '5I7MPHYT3GDFYAGM' }, [
    { name: 'Rudi Several', label: 'Registered visitor', euCode: 'PEFJNJT2SCOEI5MQ' },
    { name: 'Rudi Several', label: 'Staff', euCode: '5BQY2JQI4L6SQMFG' },
  ]),
  V('Jakarta', 1178, true, { name: 'Joko One', label: 'Registered visitor', euCode: 'GBBT4JGWCJM4W4IY' }, [
    { name: 'Sinta Several', label: 'Registered visitor', euCode: '3IY3TNWGYZRL64O7' },
    { name: 'Sinta Several', label: 'Media', euCode: '2C35W3HYEJIZNOTL' },
  ]),
  V('VnAsia', 1314, false, { name: 'Le One', label: 'Registered visitor', euCode: 'AEEYJ54H6FO27V4F' }, [
    { name: 'Pham Several', label: 'Registered visitor', euCode: 'SDIJBRVXXJG67NGQ' },
    { name: 'Pham Several', label: 'Booth A-101 | Exhibitor', euCode: '6E7RUUTW5UDD44EI' },
  ]),
  V('IndonesianNew', 1262, false, { name: 'Agus One', label: 'Registered visitor', euCode: 'K3NTCHJTGWOYWZKC' }, [
    { name: 'Putri Several', label: 'Registered visitor', euCode: 'Q67H6URVKPHUKLIA' },
    { name: 'Putri Several', label: 'VIP Lounge Pass', euCode: '4YVCSQFAK2RZLFM3' },
  ]),
  // 1106 has no several contact in the seed; its one@demo.test is awaiting review
  V('Thai', 1106, true, { name: 'Niran Review', label: 'Registered visitor', euCode: 'MMN6R4ECDU5ZN4EI', review: true }, null),
  // 1179's several are by phone (+66800000003): see PHONE_SEVERAL
  V('Bangkok', 1179, true, { name: 'Prasert One', label: 'Registered visitor', euCode: 'HR7GGML4CZJFWAE4' }, null),
  V('vietnamNew', 1317, false, { name: 'Hoa One', label: 'Registered visitor', euCode: 'OMYRIPN2KFXLDPID' }, [
    { name: 'Minh Several', label: 'Registered visitor', euCode: 'XBRX7V4TW5UHUQVJ' },
    { name: 'Minh Several', label: 'Booth builder', euCode: 'RIPBZM44MVMROSQH' },
  ]),
  V('vietnam', 1113, false, { name: 'Lan One', label: 'Registered visitor', euCode: 'BVO37YKZC3RDPYK2' }, [
    { name: 'Quang Several', label: 'Registered visitor', euCode: 'GL7M247OEEYM6UMY' },
    { name: 'Quang Several', label: 'Reserved staff', euCode: 'R5K7BL6XDV57WL6Z' },
  ]),
  {
    // the generic lookup screen of spec §2.3 on expo 2001
    name: '',
    expoId: 2001,
    fId: 22001,
    search: 'search',
    form: 'form',
    // expo 2001 has activity 12001: the lookup goes to /form/…, whose guard goes on to /proving/… (spec §2.3, §4)
    formLanding: 'proving',
    success: 'success',
    // its config (customerWx 62001) has queryMethod 2: e-mail lookup only (spec §3)
    phone: false,
    one: { name: '郑一', label: 'Registered visitor', euCode: 'LNBZQNKOL2ITQGD4' },
    several: [
      { name: '钱多', label: 'Registered visitor', euCode: 'XMTKFNHEGHQMGGMG' },
      { name: '钱多', label: 'VIP/Guest', euCode: 'JNJVACIO2GHTJC7S' },
    ],
  },
];

export function caseOf(name: string): Case {
  const c = CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no case ${name}`);
  return c;
}

/** The lookup page of a case: `/{search}/{fId}/{eid}/{ty}`, optionally with a query (`?mode=1`). */
export function lookupUrl(c: Pick<Case, 'search' | 'fId' | 'expoId'>, query = '', fId = c.fId): string {
  return `/${c.search}/${fId}/${eid(c.expoId)}/visitor${query}`;
}

/** The stored path the form routes carry: `{fId}/{eid}/{ty}`. */
export function storedPath(c: Pick<Case, 'fId' | 'expoId'>, fId = c.fId): string {
  return `${fId}/${eid(c.expoId)}/visitor`;
}

/** The credential path of a record (spec §2.1 route shape; the generic /success has no `?f=`). */
export function credentialPath(c: Pick<Case, 'success' | 'expoId' | 'fId' | 'name'>, euCode: string, fId = c.fId): string {
  return `/${c.success}/${eid(fId)}/${eid(euCode)}/${eid(c.expoId)}/${fId}${c.name ? '/' : ''}`;
}

const LANG_OF_TAG = new Map<string, Lang>(Object.entries(HTML_LANG).map(([k, v]) => [v, k as Lang]));

/** The page's language, read from `<html lang>`. */
export async function pageLang(page: Page): Promise<Lang> {
  const tag = (await page.locator('html').getAttribute('lang')) ?? 'zh-CN';
  const lang = LANG_OF_TAG.get(tag);
  if (!lang) throw new Error(`unknown <html lang="${tag}">`);
  return lang;
}

/** The catalogue of the page's language. */
export async function texts(page: Page): Promise<Record<string, string>> {
  return strings(await pageLang(page));
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A catalogue text with `{{n}}`-style variables as a pattern matching any value. */
export function textPattern(template: string): RegExp {
  const parts = template.split(/\{\{\s*\w+\s*\}\}/).map(escapeRe);
  return new RegExp(parts.join('.+?'));
}

/** The lookup form's controls, by role and label, in the page's language. */
export function form(page: Page, s: Record<string, string>) {
  const send = new RegExp(
    `^(?:${[s['search.sendCode'], s['search.reget'], s['search.sending']].map((x) => escapeRe(x ?? '')).join('|')}|${textPattern(s['search.countdown'] ?? '').source})$`,
  );
  return {
    email: page.getByLabel(s['search.email'] ?? '', { exact: true }),
    phone: page.getByRole('textbox', { name: s['search.phone'] ?? '', exact: true }),
    /** with JS the picker button (named by the label and the chosen entry); without JS the native select */
    country: js()
      ? page.getByRole('button', { name: new RegExp(`^${escapeRe(s['search.country'] ?? '')}`) })
      : page.getByRole('combobox', { name: s['search.country'] ?? '', exact: true }),
    code: page.getByLabel(s['search.code'] ?? '', { exact: true }),
    send: page.getByRole('button', { name: send }),
    submit: page.getByRole('button', { name: s['search.submit'] ?? '', exact: true }),
    modeLink: (mode: 'phone' | 'email') =>
      page.getByRole('link', { name: s[mode === 'phone' ? 'search.modePhone' : 'search.modeEmail'] ?? '', exact: true }),
  };
}

/**
 * With JS: waits until every island has hydrated (Astro removes `ssr` then) and the lookup form
 * island has taken the page's state into its stores (`data-enhanced` on its `[data-lookup]` root),
 * so clicks are the islands', not the plain form's.
 */
export async function hydrated(page: Page): Promise<void> {
  if (!js()) return;
  await expect(page.locator('astro-island[ssr], [data-lookup]:not([data-enhanced])')).toHaveCount(0, { timeout: 15_000 });
}

/** Opens a lookup page and waits for it to be usable; returns its catalogue. */
export async function openLookup(page: Page, url: string): Promise<Record<string, string>> {
  const res = await page.goto(url);
  expect(res?.status(), `status of ${url}`).toBe(200);
  await hydrated(page);
  return texts(page);
}

interface OutboxMark {
  code: string;
  createdAt: string;
}

/**
 * The outbox's latest entry for a contact (on expo `expoId` when given) before a send, to tell a
 * new code from an old one.
 */
export async function outboxMark(request: APIRequestContext, to: string, expoId?: number): Promise<OutboxMark | null> {
  return latestOutboxCode(request, to, expoId);
}

/**
 * The code sent to `to` (on expo `expoId` when given) after `before` (polls the dev outbox
 * `/dev/outbox.json?to=&expoId=`).
 */
export async function readCode(
  request: APIRequestContext,
  to: string,
  before: OutboxMark | null = null,
  expoId?: number,
): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const now = await latestOutboxCode(request, to, expoId);
        if (!now || (before && now.code === before.code && now.createdAt === before.createdAt)) return null;
        code = now.code;
        return code;
      },
      { message: `a new code for ${to} in the dev outbox`, timeout: 10_000 },
    )
    .not.toBeNull();
  return code;
}

/**
 * The expo a lookup form sends codes for: the hidden `expoId` of the form holding `control`
 * (src/components/lookup/LookupForm.astro), or undefined for a form without one (then the outbox is read
 * by contact alone).
 */
export async function formExpoId(page: Page, control: Locator): Promise<number | undefined> {
  const field = page.locator('form').filter({ has: control }).locator('input[type="hidden"][name="expoId"]');
  if ((await field.count()) !== 1) return undefined;
  const value = Number(await field.inputValue());
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * Presses the send-code button and reads the new code from the outbox. With JS the button then
 * counts down ('getting now (n)', disabled); without JS the page comes back with the info notice.
 */
export async function sendCode(page: Page, request: APIRequestContext, to: string, s: Record<string, string>): Promise<string> {
  const f = form(page, s);
  const expoId = await formExpoId(page, f.send);
  const before = await outboxMark(request, to, expoId);
  await f.send.click();
  const code = await readCode(request, to, before, expoId);
  if (js()) {
    await expect(f.send).toBeDisabled();
    await expect(f.send).toHaveText(textPattern(s['search.countdown'] ?? ''));
  } else {
    await page.waitForLoadState();
    await expect(page.getByRole('status').filter({ hasText: textPattern(s['search.codeSentTo'] ?? '') })).toBeVisible();
  }
  return code;
}

/** Types the code and presses the look-up button. */
export async function submitCode(page: Page, code: string, s: Record<string, string>): Promise<void> {
  const f = form(page, s);
  await f.code.fill(code);
  await f.submit.click();
}

/** The whole e-mail lookup: type the e-mail, send, read the code, type it, look up. */
export async function lookupByEmail(page: Page, request: APIRequestContext, email: string, s?: Record<string, string>): Promise<void> {
  const cat = s ?? (await texts(page));
  const f = form(page, cat);
  await f.email.fill(email);
  const code = await sendCode(page, request, email, cat);
  // without JS the page came back with the e-mail kept
  await expect(f.email).toHaveValue(email);
  await submitCode(page, code, cat);
}

/** Switches the form to phone mode through its mode link (a link to `?mode=1` without JS). */
export async function phoneMode(page: Page, s: Record<string, string>): Promise<void> {
  const f = form(page, s);
  await f.modeLink('phone').click();
  await expect(f.phone).toBeVisible();
}

/**
 * Chooses a country/region: with JS in the searchable bottom popup (typing `search`, e.g. 'Indo'
 * or '62', and choosing the entry starting with `areaCode`); without JS in the native select.
 */
export async function chooseCountry(page: Page, s: Record<string, string>, areaCode: string, search: string): Promise<void> {
  const f = form(page, s);
  if (js()) {
    await f.country.click();
    const dialog = page.getByRole('dialog', { name: s['search.country'] ?? '' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel(s['search.countrySearch'] ?? '', { exact: true }).fill(search);
    await dialog.getByRole('button', { name: new RegExp(`^${escapeRe(areaCode)} `) }).first().click();
    await expect(dialog).toBeHidden();
    await expect(f.country).toHaveAccessibleName(new RegExp(`${escapeRe(areaCode)} `));
  } else {
    await f.country.selectOption(areaCode);
    await expect(f.country).toHaveValue(areaCode);
  }
}

export interface PhoneContact {
  areaCode: string;
  national: string;
  /** what to type into the picker's search box (JS) */
  search: string;
}

/** The whole phone lookup: phone mode, country, number, send, read the code (E.164 in the outbox), look up. */
export async function lookupByPhone(page: Page, request: APIRequestContext, p: PhoneContact, s?: Record<string, string>): Promise<void> {
  const cat = s ?? (await texts(page));
  const f = form(page, cat);
  if (!(await f.phone.isVisible())) await phoneMode(page, cat);
  await chooseCountry(page, cat, p.areaCode, p.search);
  await f.phone.fill(p.national);
  const code = await sendCode(page, request, `${p.areaCode}${p.national}`, cat);
  await expect(f.phone).toHaveValue(p.national);
  await submitCode(page, code, cat);
}

/** The QR code of the credential page (`img.qr`), screenshotted and decoded. */
export async function decodeQr(page: Page): Promise<string> {
  const qr = page.locator('img.qr');
  await expect(qr).toBeVisible();
  const png = PNG.sync.read(await qr.screenshot());
  const found = jsQR(Uint8ClampedArray.from(png.data), png.width, png.height);
  expect(found, 'jsQR finds a QR code in the screenshot of img.qr').not.toBeNull();
  return found?.data ?? '';
}

/** The registration code as the credential page shows it. */
export function shownCode(page: Page): Locator {
  return page.locator('dd.code');
}

/**
 * Asserts the page is the credential of `rec`: the URL's shape and decoded ids (spec §2.1), the
 * code on the page, and the QR code decoding to it.
 */
export async function expectCredential(page: Page, c: Case, rec: Rec, opts: { fId?: number; qr?: boolean } = {}): Promise<void> {
  const fId = opts.fId ?? c.fId;
  await expect(page).toHaveURL((u) => u.pathname === credentialPath(c, rec.euCode, fId));
  const url = new URL(page.url());
  const [, route, u, e, x, f] = url.pathname.split('/');
  expect(route).toBe(c.success);
  expect(uneid(u ?? '')).toBe(String(fId));
  expect(uneid(e ?? '')).toBe(rec.euCode);
  expect(uneid(x ?? '')).toBe(String(c.expoId));
  expect(f).toBe(String(fId));
  if (c.name) expect(url.searchParams.has('f'), 'the variant credential route carries ?f=').toBe(true);
  if (rec.review) {
    // nothing for the gate until it is approved: its state instead of the code and the QR
    await expect(page.locator('[data-awaiting-review]')).toBeVisible();
    await expect(shownCode(page)).toHaveCount(0);
    await expect(page.getByText(rec.name, { exact: true }).first()).toBeVisible();
    return;
  }
  await expect(shownCode(page)).toHaveText(rec.euCode);
  await expect(page.getByText(rec.name, { exact: true }).first()).toBeVisible();
  if (opts.qr !== false) {
    const data = await decodeQr(page);
    expect(data, 'the QR code holds the registration code shown on the page').toBe((await shownCode(page).textContent())?.trim());
    expect(data, 'the QR code holds the euCode of the URL segment').toBe(uneid(e ?? ''));
  }
}

/** The rows of the selection list (popup with JS, /applyList without): name, label and credential link. */
export async function expectRows(list: Locator, c: Case, rows: readonly Rec[], fId = c.fId): Promise<void> {
  const links = list.getByRole('link');
  await expect(links).toHaveCount(rows.length);
  for (const [i, rec] of rows.entries()) {
    const link = links.nth(i);
    await expect(link).toContainText(rec.name);
    await expect(link).toContainText(rec.label);
    const href = (await link.getAttribute('href')) ?? '';
    expect(new URL(href, 'http://x').pathname, `row ${i} links to the credential of ${rec.euCode}`).toBe(credentialPath(c, rec.euCode, fId));
  }
}
