/**
 * Registration forms in Chromium, JavaScript on (`js`) and off (`nojs`): a visitor with no
 * registration verifies a contact, lands on the form, registers and gets the credential in the
 * same visit (its QR decodes to the registration code); the supplement, second and repair
 * forms; the 20001 update prompt; a submit that fails at the network keeps every value.
 * Contacts are fresh per test, or the per-project form-*-<js|nojs> contacts of the seed
 * (functions/reference/SEED.md), so the two projects and the other specs never meet.
 */
import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { HTML_LANG, jsEnabled, latestOutboxCode, lookUpByEmail, setLangCookie, t, type Lang, type LookupTarget, test } from './fixtures';
import { decodeId, encodeId } from '../../src/lib/util/ids';
import { idCheckChar } from '../../src/lib/form/id-number';

const project = (info: TestInfo) => (jsEnabled(info) ? 'js' : 'nojs');
let counter = 0;
const freshEmail = (info: TestInfo) => `form-new-${project(info)}-${Date.now()}-${counter++}@demo.test`;

/** A legal mainland ID number nobody has registered with yet (the ID number is matched for 20001). */
function freshIdNumber(): string {
  const r = (n: number) => Math.floor(Math.random() * n);
  const body = `110105${1980 + r(20)}0${1 + r(9)}1${r(10)}${String(r(1000)).padStart(3, '0')}`;
  return body + idCheckChar(body);
}

function target(search: string, variant: string, expoId: number, fId: number): LookupTarget {
  return { expoId, urlId: fId, ty: 'visitor', variant, f: '', back: `/${search}/${fId}/${encodeId(expoId)}/visitor` };
}

/** The page's language, read from `<html lang>`. */
async function pageLang(page: Page): Promise<Lang> {
  const tag = await page.locator('html').getAttribute('lang');
  const hit = (Object.entries(HTML_LANG) as [Lang, string][]).find(([, v]) => v === tag);
  return hit?.[0] ?? 'zh';
}

/** Waits for the island to take over the form (js project only). */
async function ready(page: Page, info: TestInfo): Promise<void> {
  if (jsEnabled(info))
    // The form is `novalidate` from the server (issue 14); hydration is when Astro drops `ssr`.
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 15_000 });
}

/**
 * Fills every required part of whatever form is shown, leaving filled values alone. Choices are
 * clicked first and typed values filled last: leaving a field with a wrong value shows its
 * message (spec §5), which moves what is below it.
 */
async function fillForm(page: Page, name: string, more: { idType?: string; idNumber?: string } = {}): Promise<void> {
  const form = page.locator('#reg-form');
  for (const select of await form.locator('select').all()) {
    const nameAttr = (await select.getAttribute('name')) ?? '';
    if (nameAttr.endsWith('.areaCode') || nameAttr === 'ucardid.type') continue;
    if ((await select.inputValue()) === '') await select.selectOption({ index: 1 });
  }
  for (const group of await form.locator('.form-checkbox, .form-radio').all()) {
    if ((await group.locator('input:checked').count()) === 0)
      await group.locator('input[type="checkbox"], input[type="radio"]').first().check();
  }
  const privacy = form.locator('.form-privacy input[type="checkbox"]');
  if ((await privacy.count()) > 0) await privacy.check();
  const setIfEmpty = async (selector: string, value: string) => {
    const el = form.locator(selector);
    if ((await el.count()) > 0 && (await el.inputValue()) === '') await el.fill(value);
  };
  await setIfEmpty('[name="uname"]', name);
  await setIfEmpty('[name="ucompany"]', 'Form Spec Co.');
  await setIfEmpty('[name="ucompanyTitle"]', 'Buyer');
  if ((await form.locator('[name="ucardid.type"]').count()) > 0) {
    await form.locator('[name="ucardid.type"]').selectOption(more.idType ?? '1');
    await form.locator('[name="ucardid"]').fill(more.idNumber ?? freshIdNumber());
  }
}

/** The registration code the credential page's QR code holds (screenshot of `img.qr`, decoded with jsQR). */
async function qrText(page: Page): Promise<string | null> {
  const png = PNG.sync.read(await page.locator('img.qr').screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

/** Waits for a credential page, checks its QR decodes to the code in its URL, returns that code. */
async function expectCredential(page: Page, success: RegExp): Promise<string> {
  await page.waitForURL(success);
  const segment = new URL(page.url()).pathname.split('/')[3] ?? '';
  const euCode = decodeId(segment) ?? '';
  expect(euCode).not.toBe('');
  expect(await qrText(page)).toBe(euCode);
  await expect(page.locator('.credential .code')).toHaveText(euCode);
  return euCode;
}

/** Zero matches → the form: the verified contact's page, as the lookup answers it. */
async function openFormAfterLookup(
  page: Page,
  info: TestInfo,
  tgt: LookupTarget,
  formRoute: string,
  email = freshEmail(info),
): Promise<string> {
  const location = await lookUpByEmail(page.request, email, tgt);
  expect(new URL(location, 'http://x').pathname.startsWith(`/${formRoute}/`), `${email} → ${location}`).toBe(true);
  await page.goto(location);
  await ready(page, info);
  return email;
}

const submit = (page: Page) => page.locator('#reg-form .reg-submit').click();

const NEW_FORMS = [
  {
    name: 'generic /form (expo 2003)',
    search: 'search',
    variant: '',
    expoId: 2003,
    fId: 22003,
    form: 'form',
    success: /\/success\//,
  },
  {
    name: 'IEAE (1308)',
    search: 'IEAESearch',
    variant: 'IEAE',
    expoId: 1308,
    fId: 21308,
    form: 'IEAEForm',
    success: /\/IEAESuccess\//,
  },
  {
    name: 'Asia (1312)',
    search: 'AsiaSearch',
    variant: 'Asia',
    expoId: 1312,
    fId: 21312,
    form: 'AsiaForm',
    success: /\/AsiaSuccess\//,
  },
  {
    name: 'Malaysia (1316)',
    search: 'MaylaysiaSearch',
    variant: 'Maylaysia',
    expoId: 1316,
    fId: 21316,
    form: 'MaylaysiaForm',
    success: /\/MaylaysiaSuccess\//,
  },
  {
    name: 'new Thai (1261)',
    search: 'ThaiNewSearch',
    variant: 'ThaiNew',
    expoId: 1261,
    fId: 21261,
    form: 'ThaiNewForm',
    success: /\/ThaiNewSuccess\//,
  },
  {
    name: 'new Vietnam (1317, no phone)',
    search: 'vietnamNewSearch',
    variant: 'vietnamNew',
    expoId: 1317,
    fId: 21317,
    form: 'vietnamNewForm',
    success: /\/vietnamNewSuccess\//,
  },
  {
    name: 'Indonesian (1108)',
    search: 'IndonesianSearch',
    variant: 'Indonesian',
    expoId: 1108,
    fId: 21108,
    form: 'IndonesianForm',
    success: /\/IndonesianSuccess\//,
  },
] as const;

test.describe('zero matches → form → credential', () => {
  for (const c of NEW_FORMS) {
    test(c.name, async ({ page }, info) => {
      const email = await openFormAfterLookup(page, info, target(c.search, c.variant, c.expoId, c.fId), c.form);
      // The verified contact is filled in and read-only.
      await expect(page.locator('#reg-form [name="email"]')).toHaveValue(email);
      await expect(page.locator('#reg-form [name="email"]')).toHaveAttribute('readonly', '');
      if (c.expoId === 1317) await expect(page.locator('#reg-form [name="phone"]')).toHaveCount(0);
      await fillForm(page, `Spec ${c.variant || 'generic'}`);
      await submit(page);
      await expectCredential(page, c.success);
    });
  }
});

test('a labelled link (?define=VIP, spec §7 getForm): the form says so and the credential shows the label', async ({ page }, info) => {
  const location = await lookUpByEmail(page.request, freshEmail(info), target('IEAESearch', 'IEAE', 1308, 21308));
  const labelled = new URL(location, 'http://x');
  labelled.searchParams.set('define', 'VIP');
  await page.goto(`${labelled.pathname}${labelled.search}`);
  await ready(page, info);
  const lang = await pageLang(page);
  await expect(page.locator('#form-define')).toHaveText(t(lang, 'define.registeringAs').replace('{{name}}', 'VIP 贵宾 VIP guest'));
  await expect(page.locator('#reg-form input[name="define"]')).toHaveValue('VIP');
  await fillForm(page, 'Labelled Guest');
  await submit(page);
  await expectCredential(page, /\/IEAESuccess\//);
  await expect(page.locator('dd', { hasText: /^VIP \| / })).toHaveCount(1);
});

test('a refused field keeps every value and focuses the field', async ({ page }, info) => {
  await openFormAfterLookup(page, info, target('IEAESearch', 'IEAE', 1308, 21308), 'IEAEForm');
  await page.locator('#reg-form [name="purpose.__other"]').check();
  await page.locator('#reg-form [name="purpose.other"]').fill('Kept other text');
  await fillForm(page, 'Kept Values', { idNumber: '110105194912310021' });
  await submit(page);
  const lang = await pageLang(page);
  await expect(page.locator('#err-ucardid')).toHaveText(t(lang, 'form.idNumberIllegal'));
  await expect(page.locator('#reg-form [name="uname"]')).toHaveValue('Kept Values');
  await expect(page.locator('#reg-form [name="purpose.other"]')).toHaveValue('Kept other text');
  if (jsEnabled(info)) await expect(page.locator('#reg-form [name="ucardid"]')).toBeFocused();
  await page.locator('#reg-form [name="ucardid"]').fill(freshIdNumber());
  await submit(page);
  await expectCredential(page, /\/IEAESuccess\//);
});

test("an ID number registered by another contact does not block you: your own credential, no prompt about theirs", async ({
  page,
}, info) => {
  // issue 19 item 2: the answer is the one an unused ID number gets (docs/upstream.md); the
  // seeded form-existing-<project> registration keeps its ID number and is not shown.
  await openFormAfterLookup(page, info, target('IEAESearch', 'IEAE', 1308, 21308), 'IEAEForm');
  await fillForm(page, '冒名者', { idType: '2', idNumber: `FORM-E2E-${project(info).toUpperCase()}-01` });
  await submit(page);
  const euCode = await expectCredential(page, /\/IEAESuccess\//);
  expect(['N5MTI7FONKCAA6VV', '2I3Q5PQW5L446VBP']).not.toContain(euCode);
  await expect(page.locator('.credential')).toContainText('冒名者');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});

/** A phone proven as a browser proves it (send-code, the outbox's code, lookup); the lookup's Location. */
async function lookUpByPhone(request: APIRequestContext, areaCode: string, national: string, tgt: LookupTarget): Promise<string> {
  const fields = { expoId: String(tgt.expoId), urlId: String(tgt.urlId), ty: tgt.ty, variant: tgt.variant, f: tgt.f, back: tgt.back };
  const sent = await request.post('/api/send-code', { form: { ...fields, checkType: '1', areaCode, phone: national }, maxRedirects: 0 });
  expect(sent.status()).toBe(303);
  const code = await latestOutboxCode(request, `${areaCode}${national}`, tgt.expoId);
  expect(code).not.toBeNull();
  const looked = await request.post('/api/lookup', {
    form: { ...fields, checkType: '1', areaCode, phone: national, code: code?.code ?? '' },
    maxRedirects: 0,
  });
  expect(looked.status()).toBe(303);
  return looked.headers()['location'] ?? '';
}

test("an e-mail typed into someone else's form is not theirs: its owner's lookup gets the form, then a credential of their own", async ({
  page,
}, info) => {
  // issue 19 item 1, as the attacker ran it: prove phone A, type the victim's e-mail into the form.
  const tgt = target('IEAESearch', 'IEAE', 1308, 21308);
  const national = `8${String(Date.now()).slice(-8)}`;
  const victim = freshEmail(info);
  const formAt = await lookUpByPhone(page.request, '+66', national, tgt);
  expect(formAt).toMatch(/^\/IEAEForm\//);
  await page.goto(formAt);
  await ready(page, info);
  await page.locator('#reg-form [name="email"]').fill(victim);
  await fillForm(page, '冒名者');
  await submit(page);
  const attackers = await expectCredential(page, /\/IEAESuccess\//);

  // The victim, in a browser of their own, proves the e-mail: the registration form, not the attacker's credential.
  await page.context().clearCookies();
  await openFormAfterLookup(page, info, tgt, 'IEAEForm', victim);
  await fillForm(page, '真正的人');
  await submit(page);
  const own = await expectCredential(page, /\/IEAESuccess\//);
  expect(own).not.toBe(attackers);
  await expect(page.locator('.credential')).toContainText('真正的人');
});

test('20001: the update prompt, then "update" leads to the existing credential', async ({ page }, info) => {
  // Only the contact that registered the ID number is asked (issue 9): it looks itself up
  // (its credential), then opens the form with that verified contact.
  const tgt = target('IEAESearch', 'IEAE', 1308, 21308);
  await lookUpByEmail(page.request, `form-existing-${project(info)}@demo.test`, tgt);
  await page.goto(`/IEAEForm/21308/${encodeId(1308)}/visitor`);
  await ready(page, info);
  await fillForm(page, '已有证件更新', { idType: '2', idNumber: `FORM-E2E-${project(info).toUpperCase()}-01` });
  await submit(page);
  const lang = await pageLang(page);
  const prompt = page.getByRole('alertdialog');
  await expect(prompt).toContainText(t(lang, 'form.updatePrompt'));
  await expect(prompt.getByRole('link', { name: t(lang, 'form.noUpdate') })).toHaveAttribute(
    'href',
    `/IEAESearch/21308/${encodeId(1308)}/visitor`,
  );
  await prompt.getByRole('button', { name: t(lang, 'form.update') }).click();
  const euCode = await expectCredential(page, /\/IEAESuccess\//);
  expect(euCode).toBe(project(info) === 'js' ? 'N5MTI7FONKCAA6VV' : '2I3Q5PQW5L446VBP');
  await expect(page.locator('.credential')).toContainText('已有证件更新');
});

test('Jakarta supplement: one record without an activity is completed', async ({ page }, info) => {
  const p = project(info);
  await openFormAfterLookup(
    page,
    info,
    target('JakartaSearch', 'Jakarta', 1178, 21178),
    'JakartaSupplement',
    `form-supplement-${p}@demo.test`,
  );
  await fillForm(page, `Supplement ${p.toUpperCase()}`);
  await submit(page);
  const euCode = await expectCredential(page, /\/JakartaSuccess\//);
  expect(euCode).toBe(p === 'js' ? 'O4HLQ2QIHPGMQ3OJ' : 'T2CJWNPKH3SEBEBO');
});

test('Jakarta second form (20003): saved values loaded, completed', async ({ page }, info) => {
  const p = project(info);
  await openFormAfterLookup(
    page,
    info,
    target('JakartaSearch', 'Jakarta', 1178, 21178),
    'JakartaSecondForm',
    `form-second-${p}@demo.test`,
  );
  const form = page.locator('#reg-form');
  await expect(form.locator('[name="industry"]')).toHaveValue('Energy');
  await expect(form.locator('input[name="purpose"][value="Sourcing"]')).toBeChecked();
  await expect(form.locator('[name="visitDays.0"]')).toBeChecked();
  await form.locator('[name="visitDays.1"]').check();
  await fillForm(page, 'unused');
  await submit(page);
  const euCode = await expectCredential(page, /\/JakartaSuccess\//);
  expect(euCode).toBe(p === 'js' ? 'UNMQHV7WWFBTZDHE' : 'HGNK4HVQIWDYUXIG');
});

test('Bangkok second form (20003): saved values loaded, completed', async ({ page }, info) => {
  const p = project(info);
  // in Thai: the seeded options speak the page's language (not the English fallback)
  await setLangCookie(page.context(), 'thai', info);
  await openFormAfterLookup(
    page,
    info,
    target('BangkokSearch', 'Bangkok', 1179, 21179),
    'BangkokSecondForm',
    `form-second-${p}@demo.test`,
  );
  const form = page.locator('#reg-form');
  await expect(form.locator('[name="industry"]')).toHaveValue('Food');
  await expect(form.locator('[name="industry"] option:checked')).toHaveText('อาหาร');
  await expect(form.locator('input[name="purpose"][value="Networking"]')).toBeChecked();
  await fillForm(page, 'unused');
  await submit(page);
  const euCode = await expectCredential(page, /\/BangkokSuccess\//);
  expect(euCode).toBe(p === 'js' ? 'ZPP4RTYB7WA42Y6F' : 'X7MUZMIEIYYVEJGM');
});

test('repair form (expo 785): the missing company and title are completed on the same registration', async ({
  page,
}, info) => {
  const p = project(info);
  // The lookup itself sends an incomplete registration of 785 to the repair form (spec §2.3).
  const location = await lookUpByEmail(page.request, `form-repair-${p}@demo.test`, target('search', '', 785, 20785));
  const url = new URL(location, 'http://x');
  expect(url.pathname).toBe(`/repairForm/20785/${encodeId(785)}/visitor`);
  const euCode = url.searchParams.get('e') ?? '';
  expect(euCode).toMatch(/^[A-Z2-7]{16}$/);
  await page.goto(`${url.pathname}${url.search}`);
  await ready(page, info);
  await expect(page.locator('#reg-form [name="uname"]')).toHaveValue('缺资料');
  await expect(page.locator('#reg-form [name="industry"]')).toHaveCount(0);
  await fillForm(page, 'unused');
  await submit(page);
  expect(await expectCredential(page, /\/success\//)).toBe(euCode);
  await expect(page.locator('.credential')).toContainText('Form Spec Co.');
});

test('a form opened without a verified contact links to the lookup', async ({ page }) => {
  await page.goto(`/AsiaForm/21312/${encodeId(1312)}/visitor`);
  await expect(page.locator('#reg-form')).toHaveCount(0);
  const lang = await pageLang(page);
  await expect(page.getByRole('link', { name: t(lang, 'form.verifyNow') })).toHaveAttribute(
    'href',
    `/AsiaSearch/21312/${encodeId(1312)}/visitor`,
  );
});

// @js: only the island can see a network failure; without JavaScript the browser itself keeps
// the page and its values when a post fails (the nojs project does not run @js tests).
test('a submit that fails at the network keeps every value, also through a reload @js', async ({ page }, info) => {
  await openFormAfterLookup(page, info, target('AsiaSearch', 'Asia', 1312, 21312), 'AsiaForm');
  await page.locator('#reg-form [name="purpose.__other"]').check();
  await page.locator('#reg-form [name="purpose.other"]').fill('Other kept');
  await fillForm(page, 'Network Kept');
  await page.route('**/api/register', (route) => route.abort('internetdisconnected'));
  await submit(page);
  await expect(page.locator('.toast')).toBeVisible();
  await expect(page).toHaveURL(/\/AsiaForm\//);
  await expect(page.locator('#reg-form [name="uname"]')).toHaveValue('Network Kept');
  await page.unroute('**/api/register');
  await page.reload();
  await ready(page, info);
  const form = page.locator('#reg-form');
  await expect(form.locator('[name="uname"]')).toHaveValue('Network Kept');
  await expect(form.locator('[name="ucompany"]')).toHaveValue('Form Spec Co.');
  await expect(form.locator('[name="purpose.other"]')).toHaveValue('Other kept');
  await expect(form.locator('[name="purpose.__other"]')).toBeChecked();
  await submit(page);
  await expectCredential(page, /\/AsiaSuccess\//);
});
