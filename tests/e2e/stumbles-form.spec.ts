/**
 * Issue 14, the registration form's stumbles, in Chromium with JavaScript on (`js`) and off
 * (`nojs`), in Chinese, English and Thai (expo 1261, new Thai: a variant form with a phone, a
 * date, choices and the privacy agreement; its lookup says 'Buyer Register'):
 *
 * 1. a confirmation that expires mid-form says so, keeps every typed value and the new code
 *    leads back to the form (the expired `vc` cookie is forged with the servers' known
 *    SESSION_SECRET, scripts/lib.mjs, instead of waiting 30 minutes);
 * 2. a message appearing when a field is left does not move the control being tapped;
 * 3. the date, the country names, the titles follow the page language;
 * 4. without JavaScript a refusal names every failing field at once;
 * 5. one country entry per calling code;
 * issue 30: reloading the form after its error page empties nothing.
 */
import { expect, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { baseUrl, jsEnabled, lookUpByEmail, setLangCookie, strings, t, type Lang, type LookupTarget, test } from './fixtures';
import { form as lookupForm, readCode, outboxMark } from './lookup-helpers';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { encodeId } from '../../src/lib/util/ids';
import { SENT_COOKIE } from '../../src/lib/lookup/resend';

/** The servers' SESSION_SECRET (scripts/lib.mjs e2eServer: the environment's, else the local default). */
const SECRET = process.env['SESSION_SECRET'] ?? 'local-dev-session-secret-not-for-production';

const EXPO = 1261;
const FID = 21261;
const LOOKUP = `/ThaiNewSearch/${FID}/${encodeId(EXPO)}/visitor`;
const FORM = `/ThaiNewForm/${FID}/${encodeId(EXPO)}/visitor`;
const TARGET: LookupTarget = { expoId: EXPO, urlId: FID, ty: 'visitor', variant: 'ThaiNew', f: '', back: LOOKUP };
const LANGS: readonly Lang[] = ['zh', 'en', 'thai'];

let counter = 0;
const freshEmail = (info: TestInfo) =>
  `stumble-${jsEnabled(info) ? 'js' : 'nojs'}-${Date.now().toString(36)}-${counter++}@demo.test`;

/** Waits for the island to take over the form (js project only). */
async function ready(page: Page, info: TestInfo): Promise<void> {
  if (jsEnabled(info))
    // The form is `novalidate` from the server (issue 14); hydration is when Astro drops `ssr`.
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 15_000 });
}

/** A fresh contact verified (no-JS lookup through the page's cookie jar), then its form in `lang`. */
async function openForm(page: Page, info: TestInfo, lang: Lang): Promise<string> {
  await setLangCookie(page.context(), lang, info);
  const email = freshEmail(info);
  const location = await lookUpByEmail(page.request, email, TARGET);
  expect(new URL(location, 'http://x').pathname).toBe(FORM);
  await page.goto(FORM);
  await ready(page, info);
  return email;
}

const field = (page: Page, name: string) => page.locator(`#reg-form [name="${name}"]`);

/** Fills what the form requires, leaving the date and the phone to the test. */
async function fillRequired(page: Page, name: string): Promise<void> {
  await field(page, 'industry').selectOption({ index: 1 });
  await page.locator('#reg-form .form-checkbox input[type="checkbox"]').first().check();
  await field(page, 'privacy').check();
  await field(page, 'uname').fill(name);
  await field(page, 'ucompany').fill('Stumble Co.');
}

/** Replaces the verified-contact cookie with one whose windows passed (proved 3 hours ago). */
async function expireContact(context: BrowserContext, email: string, info: TestInfo): Promise<void> {
  const value = await signContact({ expoId: EXPO, contact: email, checkType: 2 }, SECRET, Date.now() - 3 * 3600_000);
  await context.addCookies([{ name: CONTACT_COOKIE, value, url: baseUrl(info), httpOnly: true }]);
  // The 60 s resend countdown of the first send is long over by then, too.
  await context.clearCookies({ name: SENT_COOKIE });
}

test.describe('1. the confirmation expires mid-form', () => {
  for (const lang of LANGS) {
    test(`${lang}: says so, keeps every value, and the new code leads back to the form`, async ({ page }, info) => {
      const email = await openForm(page, info, lang);
      await fillRequired(page, `Expired ${lang}`);
      await field(page, 'ucompany').fill('Kept Co.');
      await field(page, 'visitDate').fill(lang === 'zh' ? '2026-05-20' : '20/05/2026');
      const industry = await field(page, 'industry').inputValue();
      // The form was complete; the visitor took longer than the confirmation lasts.
      await expireContact(page.context(), email, info);

      await page.locator('#reg-form .reg-submit').click();
      await page.waitForURL((u) => u.pathname === LOOKUP && u.searchParams.get('next') === FORM);
      const s = strings(lang);
      await expect(page.getByText(t(lang, 'form.expired'))).toBeVisible();
      const f = lookupForm(page, s);
      await expect(f.email, 'the contact is filled in on the lookup').toHaveValue(email);

      // A new code, as any visitor gets it.
      if (jsEnabled(info)) await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
      const before = await outboxMark(page.request, email, EXPO);
      await f.send.click();
      const code = await readCode(page.request, email, before, EXPO);
      await f.code.fill(code);
      await f.submit.click();

      await page.waitForURL((u) => u.pathname === FORM);
      await ready(page, info);
      await expect(field(page, 'uname')).toHaveValue(`Expired ${lang}`);
      await expect(field(page, 'ucompany')).toHaveValue('Kept Co.');
      await expect(field(page, 'visitDate')).toHaveValue(lang === 'zh' ? '2026-05-20' : '20/05/2026');
      await expect(field(page, 'privacy')).toBeChecked();
      await expect(field(page, 'industry')).toHaveValue(industry);
      await expect(page.locator('#reg-form .form-checkbox input[type="checkbox"]').first()).toBeChecked();
      await expect(field(page, 'email')).toHaveValue(email);

      await page.locator('#reg-form .reg-submit').click();
      await page.waitForURL(/\/ThaiNewSuccess\//);
    });
  }

  test('a form page opens a longer window: 25 minutes after the proof the form still registers', { tag: '@http' }, async ({ request }, info) => {
    const email = freshEmail(info);
    await lookUpByEmail(request, email, TARGET);
    // The form page re-signs the cookie with its own window (issue 14) and says for how long.
    const res = await request.get(FORM);
    const setCookie = res.headersArray().find((h) => h.name.toLowerCase() === 'set-cookie' && h.value.startsWith(`${CONTACT_COOKIE}=`));
    expect(setCookie?.value, 'the form page extends the verified contact').toMatch(/Max-Age=(\d+)/i);
    const maxAge = Number(/Max-Age=(\d+)/i.exec(setCookie?.value ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(30 * 60);
    expect(await res.text()).toContain('name="uname"');
  });
});

test.describe('2. a message appearing on blur does not move the control being tapped @js', () => {
  for (const lang of LANGS) {
    test(`${lang}: the tap on the agreement below a wrong date lands`, async ({ page }, info) => {
      await page.setViewportSize({ width: 320, height: 640 });
      await openForm(page, info, lang);
      const date = field(page, 'visitDate');
      await date.fill('31/31/2026');
      const box = field(page, 'privacy');
      await box.scrollIntoViewIfNeeded();
      const before = await box.boundingBox();
      if (!before) throw new Error('the privacy checkbox has no box');
      const x = before.x + before.width / 2;
      const y = before.y + before.height / 2;
      const error = page.locator('#err-visitDate');
      await page.mouse.move(x, y);
      await page.mouse.down();
      // Finger down: the date field is left (its check runs) …
      await expect(box).toBeFocused();
      // … and its message waits for the finger to lift: nothing under the finger has moved.
      expect(await box.boundingBox()).toEqual(before);
      await page.mouse.up();
      await expect(box, 'the tap landed on the checkbox').toBeChecked();
      await expect(error).toHaveText(t(lang, 'form.dateFormat'));
      // A message that fits the line kept for it (Chinese) moves nothing even then.
      if (lang === 'zh') expect(await box.boundingBox(), 'a one-line message moves nothing at all').toEqual(before);
    });
  }
});

test.describe('3. the page language', () => {
  for (const lang of LANGS) {
    test(`${lang}: the date is read and written in the page language's order`, async ({ page }, info) => {
      await openForm(page, info, lang);
      const date = field(page, 'visitDate');
      await expect(date).toHaveAttribute('type', 'text');
      await expect(page.locator('#hint-visitDate')).toHaveText(t(lang, 'form.dateHint'));
      await expect(date).toHaveAttribute('aria-describedby', /hint-visitDate/);
      await fillRequired(page, `Date ${lang}`);
      // The US order is not this page's: 05/20/2026 is no date here.
      await date.fill(lang === 'zh' ? '20/05' : '05/20/2026');
      await page.locator('#reg-form .reg-submit').click();
      await expect(page.locator('#err-visitDate')).toHaveText(t(lang, 'form.dateFormat'));
      await expect(field(page, 'uname')).toHaveValue(`Date ${lang}`);
      // The page's own order (a Thai page also takes the Buddhist-era year) comes back as typed when
      // another field is refused (issue 23: not turned into a Gregorian year on the way back).
      const own = lang === 'zh' ? '2026年5月20日' : lang === 'thai' ? '20/05/2569' : '20/05/2026';
      await date.fill(own);
      await field(page, 'uname').fill('');
      await page.locator('#reg-form .reg-submit').click();
      await expect(page.locator('#err-uname')).toHaveText(t(lang, 'form.supplement'));
      await expect(page.locator('#err-visitDate')).not.toHaveText(t(lang, 'form.dateFormat'));
      if (lang === 'thai') await expect(date).toHaveValue(/2569$/);
      else await expect(date).toHaveValue(/2026/);
      // the seeded options (industries, purposes) speak the page's language, not the English fallback
      const script = { zh: /^[\u4e00-\u9fff]+$/, en: /^[A-Za-z ]+$/, thai: /^[\u0E00-\u0E7F ]+$/ }[lang as 'zh' | 'en' | 'thai'];
      const options = await page.locator('#reg-form select[name="industry"] option:not([value=""])').allTextContents();
      const purposes = await page.locator('#reg-form input[name="purpose"]').evaluateAll((els) => els.map((e) => e.closest('label')?.textContent?.trim() ?? ''));
      expect(options.length).toBeGreaterThan(0);
      for (const o of [...options, ...purposes.filter((p) => p !== '' && p !== t(lang, 'form.other'))]) expect(o, `option ${o} in ${lang}`).toMatch(script);
      await field(page, 'uname').fill(`Date ${lang}`);
      await page.locator('#reg-form .reg-submit').click();
      await page.waitForURL(/\/ThaiNewSuccess\//);
    });

    test(`${lang}: the lookup and the form carry the same title; the organiser's English title only on English pages`, async ({ page }, info) => {
      await openForm(page, info, lang);
      const heading = t(lang, 'search.buyerTitle');
      await expect(page.locator('h1')).toHaveText(heading);
      const formTitle = await page.title();
      await page.goto(LOOKUP);
      await expect(page.locator('h1')).toHaveText(heading);
      const lookupTitle = await page.title();
      if (lang === 'en') {
        expect(formTitle).toBe('New Thailand Expo Pre-registration');
        expect(lookupTitle).toBe('New Thailand Expo Pre-registration');
      } else {
        expect(formTitle).not.toContain('Pre-registration');
        expect(lookupTitle).not.toContain('Pre-registration');
        expect(formTitle).toContain(heading);
        expect(lookupTitle).toContain(heading);
      }
    });
  }

  test('tw: the country names are traditional, on the form and on the lookup', async ({ page }, info) => {
    await openForm(page, info, 'tw');
    const options = await page.locator('#reg-form select[name="phone.areaCode"] option').allTextContents();
    expect(options).toContain('+86 中國大陸');
    expect(options).toContain('+61 澳洲 / 聖誕島 / 科科斯（基林）群島');
    expect(options.filter((o) => /[国门亚兰尔罗]/.test(o)), 'no simplified name').toEqual([]);
    // The lookup's picker, as the server renders it.
    const lookup = await (await page.request.get(`${LOOKUP}?mode=1`)).text();
    expect(lookup).toContain('+886 台灣');
    expect(lookup).not.toContain('+886 中国台湾');
  });
});

test.describe('4. a refusal without JavaScript names every failing field at once', () => {
  for (const lang of LANGS) {
    test(`${lang}: each field with its own message, a summary that links to them, every value kept`, async ({ page }, info) => {
      await openForm(page, info, lang);
      await field(page, 'ucompanyTitle').fill('Kept title');
      await field(page, 'phone.areaCode').selectOption('+66');
      await field(page, 'phone').fill('12');
      await field(page, 'visitDate').fill('99/99/9999');
      await page.locator('#reg-form .reg-submit').click();
      const expected: [string, string][] = [
        ['uname', 'form.supplement'],
        ['ucompany', 'form.supplement'],
        ['phone', 'form.phoneIncorrect'],
        ['industry', 'form.supplement'],
        ['purpose', 'form.supplement'],
        ['visitDate', 'form.dateFormat'],
        ['privacy', 'form.privacy'],
      ];
      for (const [key, message] of expected) await expect(page.locator(`#err-${key}`)).toHaveText(t(lang, message));
      await expect(field(page, 'ucompanyTitle')).toHaveValue('Kept title');
      await expect(field(page, 'phone')).toHaveValue('12');
      await expect(field(page, 'visitDate')).toHaveValue('99/99/9999');
      if (!jsEnabled(info)) {
        // The server's round trip: one summary with a link per field, in form order.
        const summary = page.locator('#form-errors');
        await expect(summary).toContainText(t(lang, 'form.errorSummary'));
        const links = summary.getByRole('link');
        await expect(links).toHaveCount(expected.length);
        await expect(links.nth(0)).toHaveAttribute('href', '#f-uname');
        await expect(links.nth(2)).toContainText(t(lang, 'form.phoneIncorrect'));
        await links.nth(0).click();
        await expect(field(page, 'uname')).toBeFocused();
      }
    });
  }
});

test.describe('5. one country entry per calling code', () => {
  for (const lang of LANGS) {
    test(`${lang}: the form's area codes are each listed once (+61 among them)`, async ({ page }, info) => {
      await openForm(page, info, lang);
      const values = await page.locator('#reg-form select[name="phone.areaCode"] option').evaluateAll((os) =>
        os.map((o) => (o as HTMLOptionElement).value).filter((v) => v !== ''),
      );
      expect(values.length).toBeGreaterThan(200);
      expect(values.filter((v, i) => values.indexOf(v) !== i)).toEqual([]);
      expect(values.filter((v) => v === '+61')).toHaveLength(1);
      // A territory sharing its code is chosen, posted and shown back as that one entry.
      await field(page, 'phone.areaCode').selectOption('+61');
      const chosen = field(page, 'phone.areaCode').locator('option:checked');
      if (lang === 'zh') await expect(chosen).toHaveText('+61 澳大利亚 / 圣诞岛 / 科科斯（基林）群岛');
      else if (lang === 'en') await expect(chosen).toHaveText('+61 Australia / Christmas Island / Cocos (Keeling) Islands');
      // the page's own language names them (CLDR, src/lib/form/country-names.ts)
      else await expect(chosen).toHaveText(/^\+61 [\u0E00-\u0E7F ()]+ \/ [\u0E00-\u0E7F ()]+ \/ [\u0E00-\u0E7F ()]+$/);
    });
  }
});

// Without JavaScript only: with it the island keeps its own copy (forms.spec.ts "… also through a reload @js").
test.describe('issue 30: reloading the form after its error page empties nothing', () => {
  test('without JavaScript every value is still there after a reload, and the corrected form registers @nojs', async ({ page }, info) => {
    await openForm(page, info, 'en');
    await fillRequired(page, 'Reload Kept');
    await field(page, 'ucompanyTitle').fill('Kept title');
    await field(page, 'visitDate').fill('99/99/9999');
    const industry = await field(page, 'industry').inputValue();
    await page.locator('#reg-form .reg-submit').click();
    // the error page: the server's round trip
    await expect(page.locator('#err-visitDate')).toHaveText(t('en', 'form.dateFormat'));
    await page.reload();
    await ready(page, info);
    await expect(field(page, 'uname')).toHaveValue('Reload Kept');
    await expect(field(page, 'ucompany')).toHaveValue('Stumble Co.');
    await expect(field(page, 'ucompanyTitle')).toHaveValue('Kept title');
    await expect(field(page, 'visitDate')).toHaveValue('99/99/9999');
    await expect(field(page, 'industry')).toHaveValue(industry);
    await expect(page.locator('#reg-form .form-checkbox input[type="checkbox"]').first()).toBeChecked();
    await expect(field(page, 'privacy')).toBeChecked();
    await field(page, 'visitDate').fill('20/05/2026');
    await page.locator('#reg-form .reg-submit').click();
    await page.waitForURL(/\/ThaiNewSuccess\//);
  });
});
