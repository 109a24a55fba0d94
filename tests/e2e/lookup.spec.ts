/**
 * The contact lookup of spec §2.1, §2.2, §4, §5, §8, §9 in a real browser, for every variant of
 * §2.2 and the generic /search screen, with JavaScript on (`js`: the island posts JSON, counts
 * down, opens the popups) and off (`nojs`: real form posts answered 303). The same tests run in
 * both projects; where the two differ, each asserts what is true for it.
 *
 * Codes come from the dev outbox (`/dev/outbox.json?to=`); the server runs with
 * REF_SEND_INTERVAL_S=0, so only the edge's own 60 s rule (a cookie per browser) limits
 * resends: every test starts in a fresh browser context.
 */
import { expect, type Page } from '@playwright/test';
import { setLangCookie, t, test, visitorEmail } from './fixtures';
import {
  CASES,
  caseOf,
  chooseCountry,
  credentialPath,
  eid,
  expectCredential,
  expectRows,
  form,
  hydrated,
  js,
  lookupByEmail,
  lookupByPhone,
  lookupUrl,
  openLookup,
  outboxMark,
  pageLang,
  sendCode,
  storedPath,
  submitCode,
  textPattern,
  texts,
  type Case,
  type PhoneContact,
  type Rec,
} from './lookup-helpers';

test.beforeEach(async ({ context }) => {
  // English labels make the expected row labels readable; every text is still read from the catalogue.
  await setLangCookie(context, 'en', test.info());
});

const title = (c: Case) => (c.name ? `${c.name} ${c.expoId}` : `generic /search (expo ${c.expoId})`);

/** After several matches: the popup (JS) or /applyList (no JS) lists `rows`; the first row opens its credential. */
async function expectSelection(page: Page, c: Case, rows: readonly Rec[], s: Record<string, string>): Promise<void> {
  if (js()) {
    const dialog = page.getByRole('dialog', { name: s['search.selectTitle'] ?? '' });
    await expect(dialog).toBeVisible();
    // still on the lookup page: the popup opens over it
    await expect(page).toHaveURL((u) => u.pathname === new URL(lookupUrl(c), 'http://x').pathname);
    await expectRows(dialog, c, rows);
  } else {
    await expect(page).toHaveURL((u) => u.pathname === `/applyList/${storedPath(c)}`);
    const url = new URL(page.url());
    expect(url.searchParams.get('v') ?? '').toBe(c.name);
    await expect(page.getByRole('heading', { level: 1, name: s['search.selectTitle'] ?? '' })).toBeVisible();
    await expectRows(page.getByRole('main'), c, rows);
  }
  const first = rows[0];
  if (!first) return;
  await page.getByRole('link').filter({ hasText: first.label }).filter({ hasText: first.name }).first().click();
  await expectCredential(page, c, first, { qr: false });
  // the way back to the list, without a new code while the proof lasts
  const back = page.getByRole('link', { name: t(await pageLang(page), 'success.allMine').replace('{{n}}', String(rows.length)) });
  await expect(back).toHaveAttribute('href', new RegExp(`^/applyList/${storedPath(c)}\\?${c.name ? `v=${c.name}&` : ''}f=`));
}

for (const c of CASES) {
  test.describe(`lookup: ${title(c)}`, () => {
    test('zero records (none@demo.test) → the variant form route', async ({ page, request }) => {
      const s = await openLookup(page, lookupUrl(c));
      await lookupByEmail(page, request, 'none@demo.test', s);
      // the form page itself is another issue's: only the URL is asserted
      await expect(page).toHaveURL((u) => u.pathname === `/${c.formLanding}/${storedPath(c)}`);
    });

    test(`one record (one@demo.test) → the credential page, QR = euCode; history`, async ({ page, request }) => {
      await page.goto('/');
      const s = await openLookup(page, lookupUrl(c));
      await lookupByEmail(page, request, 'one@demo.test', s);
      await expectCredential(page, c, c.one);
      await page.goBack();
      if (js()) {
        // spec §2.1: navigation to the credential replaces the lookup page's history entry
        await expect(page).toHaveURL((u) => u.pathname === '/');
      } else {
        // without JS every form post is a navigation: Back shows the lookup page again
        await expect(page).toHaveURL((u) => u.pathname === new URL(lookupUrl(c), 'http://x').pathname);
      }
    });

    const several = c.several;
    if (several) {
      test(`several records (several@demo.test) → ${'selection'}: name + label rows linking to the credential`, async ({
        page,
        request,
      }) => {
        const s = await openLookup(page, lookupUrl(c));
        await lookupByEmail(page, request, 'several@demo.test', s);
        await expectSelection(page, c, several, s);
      });
    }
  });
}

test.describe('lookup: phone mode', () => {
  const phoneCases: { c: Case; p: PhoneContact; what: string; expect: { one: Rec } | { rows: Rec[] } }[] = [
    {
      c: caseOf('Jakarta'),
      p: { areaCode: '+62', national: '811000000', search: 'Indo' },
      what: 'Jakarta +62 (picker search "Indo") → one record with an activity → credential',
      expect: { one: caseOf('Jakarta').one },
    },
    {
      c: caseOf('IEAE'),
      p: { areaCode: '+86', national: '13900139000', search: '86' },
      what: 'IEAE +86 13900139000 (picker search "86") → one record → credential',
      expect: { one: { name: '赵四', label: 'Registered visitor', euCode: 'XCOE6GON4WB4N6BR' } },
    },
    {
      c: caseOf('IEAE'),
      p: { areaCode: '+86', national: '13800138000', search: '86' },
      // spec §2.2: the 1308 filter keeps the earliest (class 3 VIP) and drops the later class 8 ticket: one record is left
      what: 'IEAE +86 13800138000: VIP + ticket, the 1308 filter leaves the VIP record → credential',
      expect: { one: { name: '王三', label: 'VIP | VIP/Guest', euCode: '54KJYEL4YMO5LWHR' } },
    },
    {
      c: caseOf('ThaiNew'),
      p: { areaCode: '+66', national: '800000021', search: '66' },
      what: 'ThaiNew +66 → several: visitor + class 8 by ticketName',
      expect: {
        rows: [
          { name: 'Malee Several', label: 'Registered visitor', euCode: 'NAJ5EKSVACYFSFFH' },
          { name: 'Malee Several', label: 'Business Day Ticket', euCode: 'WPGL4LSP5Y2P5WSS' },
        ],
      },
    },
    {
      c: caseOf('Bangkok'),
      p: { areaCode: '+66', national: '800000003', search: 'Thai' },
      what: 'Bangkok +66 → several: all three records',
      expect: {
        rows: [
          { name: 'Chai Several', label: 'Registered visitor', euCode: 'GMTMK7RSXEXS5DFN' },
          { name: 'Chai Several', label: 'Trade Day Ticket', euCode: 'YB635K5Z7Y4JQ4CX' },
          { name: 'Chai Several', label: 'Guest | VIP/Guest', euCode: 'AZ6VFA6HD4UQFPB3' },
        ],
      },
    },
    {
      c: caseOf('Maylaysia'),
      p: { areaCode: '+60', national: '123000001', search: 'Malay' },
      what: 'Maylaysia +60 → one record → credential',
      expect: { one: caseOf('Maylaysia').one },
    },
    {
      c: caseOf('Thai'),
      p: { areaCode: '+66', national: '800000011', search: '66' },
      what: 'Thai +66 → one record → credential',
      expect: { one: { name: 'Kanya Phone', label: 'Registered visitor', euCode: 'MWNLI4F36KF3OLSR' } },
    },
  ];
  for (const pc of phoneCases) {
    test(pc.what, async ({ page, request }) => {
      const s = await openLookup(page, lookupUrl(pc.c));
      await lookupByPhone(page, request, pc.p, s);
      if ('one' in pc.expect) await expectCredential(page, pc.c, pc.expect.one);
      else await expectSelection(page, pc.c, pc.expect.rows, s);
    });
  }

  test('Jakarta phone zero records → /JakartaForm/…', async ({ page, request }) => {
    const c = caseOf('Jakarta');
    const s = await openLookup(page, lookupUrl(c));
    await lookupByPhone(page, request, { areaCode: '+62', national: '811999999', search: '62' }, s);
    await expect(page).toHaveURL((u) => u.pathname === `/JakartaForm/${storedPath(c)}`);
    // it says what was searched and offers another contact, so nobody registers twice
    const lang = await pageLang(page);
    const note = page.getByRole('status').filter({ hasText: '811999999' });
    await expect(note).toContainText(t(lang, 'form.noneFound').split('{{contact}}')[0]?.trim() ?? '');
    await expect(page.getByRole('link', { name: t(lang, 'form.otherContact') })).toHaveAttribute('href', `/JakartaSearch/${storedPath(c)}`);
  });

  test('e-mail-only variants offer no phone mode', async ({ page }) => {
    for (const name of ['Indonesian', 'InAsia', 'VnAsia', 'IndonesianNew', 'vietnamNew', 'vietnam']) {
      const s = await openLookup(page, lookupUrl(caseOf(name)));
      const f = form(page, s);
      await expect(f.email, `${name}: e-mail field`).toBeVisible();
      await expect(f.modeLink('phone'), `${name}: no phone mode`).toHaveCount(0);
      await expect(f.phone).toHaveCount(0);
    }
  });
});

test.describe('lookup: Jakarta and Bangkok rules (spec §2.2, §4)', () => {
  test('Jakarta, one record without activityId (e-mail) → /JakartaSupplement/…', async ({ page, request }) => {
    const c = caseOf('Jakarta');
    const s = await openLookup(page, lookupUrl(c));
    await lookupByEmail(page, request, 'supplement@demo.test', s);
    await expect(page).toHaveURL((u) => u.pathname === `/JakartaSupplement/${storedPath(c)}`);
  });

  test('Jakarta, one record without activityId (+62 phone) → /JakartaSupplement/…', async ({ page, request }) => {
    const c = caseOf('Jakarta');
    const s = await openLookup(page, lookupUrl(c));
    await lookupByPhone(page, request, { areaCode: '+62', national: '811000001', search: 'Indo' }, s);
    await expect(page).toHaveURL((u) => u.pathname === `/JakartaSupplement/${storedPath(c)}`);
  });

  test('Jakarta 20003 (second@demo.test) → /JakartaSecondForm/…', async ({ page, request }) => {
    const c = caseOf('Jakarta');
    const s = await openLookup(page, lookupUrl(c));
    await lookupByEmail(page, request, 'second@demo.test', s);
    await expect(page).toHaveURL((u) => u.pathname === `/JakartaSecondForm/${storedPath(c)}`);
    if (js()) {
      // spec §4: userId and urlsId of the 20003 reply are stored
      const stored = await page.evaluate(() => ({ userId: sessionStorage.getItem('userId'), urlsId: sessionStorage.getItem('urlsId') }));
      expect(stored.userId).toMatch(/^\d+$/);
      expect(stored.urlsId).toBe('31178');
    }
  });

  test('Bangkok 20003 (second@demo.test) → /BangkokSecondForm/…', async ({ page, request }) => {
    const c = caseOf('Bangkok');
    const s = await openLookup(page, lookupUrl(c));
    await lookupByEmail(page, request, 'second@demo.test', s);
    await expect(page).toHaveURL((u) => u.pathname === `/BangkokSecondForm/${storedPath(c)}`);
  });

  test('Bangkok 20003 (+66800000002 phone, a Thai page) → /BangkokSecondForm/…', async ({ page, context, request }) => {
    const c = caseOf('Bangkok');
    await setLangCookie(context, 'thai', test.info());
    const s = await openLookup(page, lookupUrl(c));
    await expect(page.locator('html')).toHaveAttribute('lang', 'th');
    // the picker knows Thai country names (CLDR): typing ไทย finds +66 Thailand
    await lookupByPhone(page, request, { areaCode: '+66', national: '800000002', search: 'ไทย' }, s);
    await expect(page).toHaveURL((u) => u.pathname === `/BangkokSecondForm/${storedPath(c)}`);
  });
});

test.describe('lookup: the 10542 exhibitor site of expo 1308 (bypass, spec §2.2)', () => {
  test('e-mail path: no code field, no send-code button, straight to the credential', async ({ page }) => {
    const c = caseOf('IEAE');
    const s = await openLookup(page, lookupUrl(c, '', 10542));
    const f = form(page, s);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(s['search.exhibitorManual'] ?? '');
    await expect(f.email).toBeVisible();
    await expect(f.code).toHaveCount(0);
    await expect(f.send).toHaveCount(0);
    await f.email.fill('exhibitor@demo.test');
    await f.submit.click();
    await expectCredential(page, c, { name: 'Exhibitor Demo', label: 'Exhibitor', euCode: 'ESSRIV3NLOGZOS47' }, { fId: 10542 });
  });

  test('phone path of 10542 still has the code field and the send-code button', async ({ page }) => {
    const c = caseOf('IEAE');
    const s = await openLookup(page, lookupUrl(c, '', 10542));
    const f = form(page, s);
    await f.modeLink('phone').click();
    await expect(f.phone).toBeVisible();
    await expect(f.code).toBeVisible();
    await expect(f.send).toBeVisible();
    if (js()) {
      // The send-code island, not in the e-mail page's markup, is drawn into the code row and
      // hydrates there: a press validates in place (no page load), as on any other page.
      await hydrated(page);
      await page.evaluate(() => ((window as { samePage?: boolean }).samePage = true));
      await f.send.click();
      await expect(page.getByRole('alert').filter({ hasText: s['search.selectCountry'] ?? '' })).toBeVisible();
      await expect(f.country).toBeFocused();
      expect(await page.evaluate(() => (window as { samePage?: boolean }).samePage)).toBe(true);
    }
  });
});

test.describe('lookup: send-code 60 s rule (spec §4, §9)', () => {
  test('a second press within 60 s: JS disables the button with "getting now (n)"; no JS shows the wait message', async ({
    page,
    request,
  }) => {
    const c = caseOf('Asia');
    const s = await openLookup(page, lookupUrl(c));
    const f = form(page, s);
    const email = visitorEmail(test.info()); // never looked up with: not a seeded contact
    await f.email.fill(email);
    await sendCode(page, request, email, s);
    const before = await outboxMark(request, email);
    if (js()) {
      const countdown = textPattern(s['search.countdown'] ?? '');
      await expect(f.send).toBeDisabled();
      await expect(f.send).toHaveText(countdown);
      const n1 = Number(/\d+/.exec((await f.send.textContent()) ?? '')?.[0]);
      expect(n1).toBeGreaterThan(50);
      expect(n1).toBeLessThanOrEqual(60);
      // a forced press does nothing: the button is disabled
      await f.send.click({ force: true });
      // the countdown ticks (1 s)
      await expect.poll(async () => Number(/\d+/.exec((await f.send.textContent()) ?? '')?.[0]), { timeout: 4000 }).toBeLessThan(n1);
      // the server remembers the send: after a reload the button is still counting down
      await page.reload();
      await hydrated(page);
      await expect(f.send).toBeDisabled();
      await expect(f.send).toHaveText(countdown);
    } else {
      await expect(f.send).toBeEnabled();
      await f.send.click();
      await page.waitForLoadState();
      await expect(page.getByRole('alert').filter({ hasText: textPattern(s['search.waitResend'] ?? '') })).toBeVisible();
      await expect(f.email).toHaveValue(email);
    }
    // no second code went out
    const after = await outboxMark(request, email);
    expect(after).toEqual(before);
  });

  test('code 600 from the edge: a second tab opened before the send is refused, the msg shown, its button enabled again', async ({
    page,
    context,
    request,
  }) => {
    const c = caseOf('Asia');
    const email = visitorEmail(test.info()); // never looked up with: not a seeded contact
    // tab B is loaded before any send: its button is enabled
    const other = await context.newPage();
    const s = await openLookup(other, lookupUrl(c));
    await openLookup(page, lookupUrl(c));
    await form(page, s).email.fill(email);
    await sendCode(page, request, email, s);
    const before = await outboxMark(request, email);

    const f = form(other, s);
    await f.email.fill(email);
    await expect(f.send).toBeEnabled();
    await f.send.click();
    await other.waitForLoadState();
    // spec §4, §8: on 600 the server msg is shown and the button is enabled at once
    const wait = textPattern(s['search.waitResend'] ?? '');
    if (js()) await expect(other.getByRole('status').filter({ hasText: wait })).toBeVisible();
    else await expect(other.getByRole('alert').filter({ hasText: wait })).toBeVisible();
    await expect(f.send).toBeEnabled();
    await expect(f.email).toHaveValue(email);
    expect(await outboxMark(request, email)).toEqual(before);
  });

  test('a refusal comes in the language of the page, not of the language cookie (1216 forces Chinese, the cookie says English)', async ({
    page,
    context,
    request,
  }) => {
    // spec §4: a signType 4 page without languageType is Chinese whatever the cookie says
    // (src/lib/expo/config-apply.ts); 1216 is one (functions/reference/SEED.md).
    const url = '/search/21216/MTIxNg/visitor';
    const email = visitorEmail(test.info()); // never looked up with: not a seeded contact
    const other = await context.newPage();
    const s = await openLookup(other, url);
    expect(await other.locator('html').getAttribute('lang')).toBe('zh-CN');
    await openLookup(page, url);
    await form(page, s).email.fill(email);
    await sendCode(page, request, email, s);
    const f = form(other, s);
    await f.email.fill(email);
    await f.send.click();
    await other.waitForLoadState();
    const wait = textPattern(s['search.waitResend'] ?? '');
    await expect(other.getByRole(js() ? 'status' : 'alert').filter({ hasText: wait })).toBeVisible();
  });
});

test.describe('lookup: validation (spec §5) and a wrong code (spec §8)', () => {
  /** The field shows `message` under it, is aria-invalid, described by the message, and has focus. */
  async function expectFieldError(page: Page, field: ReturnType<typeof form>['email'], message: string): Promise<void> {
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    expect(describedBy, 'aria-describedby names the message').not.toBe('');
    const msg = page.locator(`[id="${describedBy}"]`);
    await expect(msg).toHaveText(message);
    await expect(msg).toBeVisible();
    await expect(field).toHaveAccessibleDescription(message);
    await expect(field).toBeFocused();
  }

  const c = caseOf('IEAE');

  test('empty e-mail → emailPlach under the e-mail field (send-code and look-up)', async ({ page }) => {
    const s = await openLookup(page, lookupUrl(c));
    const f = form(page, s);
    await f.send.click();
    await page.waitForLoadState();
    await expectFieldError(page, f.email, s['search.emailPlach'] ?? '');
    if (js()) {
      await f.code.fill('1234');
      await f.submit.click();
      await expectFieldError(page, f.email, s['search.emailPlach'] ?? '');
      await expect(f.code).toHaveValue('1234');
    }
  });

  test('bad e-mail → emailError, the typed value kept', async ({ page }) => {
    const s = await openLookup(page, lookupUrl(c));
    const f = form(page, s);
    // passes the browser's own type=email check, fails spec §5 (final part 2-5 characters)
    const bad = 'someone@example.c';
    await f.email.fill(bad);
    await f.send.click();
    await page.waitForLoadState();
    await expectFieldError(page, f.email, s['search.emailError'] ?? '');
    await expect(f.email).toHaveValue(bad);
  });

  test('+86 phone not 11 digits starting 1[2-9] → codeError, the typed value kept', async ({ page }) => {
    const s = await openLookup(page, lookupUrl(c));
    const f = form(page, s);
    await f.modeLink('phone').click();
    await expect(f.phone).toBeVisible();
    await chooseCountry(page, s, '+86', '86');
    await f.phone.fill('11012345678');
    await f.send.click();
    await page.waitForLoadState();
    await expectFieldError(page, f.phone, s['search.codeError'] ?? '');
    await expect(f.phone).toHaveValue('11012345678');
    if (!js()) await expect(f.country).toHaveValue('+86');
    else await expect(f.country).toHaveAccessibleName(/\+86 /);
  });

  test('phone mode without a country → selectCountry on the country field', async ({ page }) => {
    const s = await openLookup(page, lookupUrl(c));
    const f = form(page, s);
    await f.modeLink('phone').click();
    await f.phone.fill('13800138000');
    await f.send.click();
    await page.waitForLoadState();
    await expectFieldError(page, f.country, s['search.selectCountry'] ?? '');
    await expect(f.phone).toHaveValue('13800138000');
  });

  test('missing code and non-digit code → the message under the code field, values kept', async ({ page, request }) => {
    const s = await openLookup(page, lookupUrl(c));
    const f = form(page, s);
    const email = visitorEmail(test.info()); // never looked up with: not a seeded contact
    await f.email.fill(email);
    await sendCode(page, request, email, s);
    if (js()) {
      await f.submit.click();
      await expectFieldError(page, f.code, s['search.codePlach'] ?? '');
      await expect(f.email).toHaveValue(email);
      await f.code.fill('12a4');
      await f.submit.click();
      await expectFieldError(page, f.code, s['search.codeDigits'] ?? '');
      await expect(f.code).toHaveValue('12a4');
      await expect(f.email).toHaveValue(email);
    } else {
      // Without JS the server-rendered form carries required/pattern: the browser's own check stops
      // the post and focuses the field (its own message, not the catalogue's); nothing is lost.
      const url = page.url();
      await f.submit.click();
      await expect(f.code).toBeFocused();
      expect(await f.code.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
      await f.code.fill('12a4');
      await f.submit.click();
      await expect(f.code).toBeFocused();
      expect(await f.code.evaluate((el: HTMLInputElement) => el.validity.patternMismatch)).toBe(true);
      expect(page.url()).toBe(url);
      await expect(f.email).toHaveValue(email);
      await expect(f.code).toHaveValue('12a4');
    }
  });

  test('a wrong code → no message, the values kept, still on the lookup page', async ({ page, request }) => {
    const s = await openLookup(page, lookupUrl(c));
    const f = form(page, s);
    const email = 'one@demo.test';
    await f.email.fill(email);
    const code = await sendCode(page, request, email, s);
    const wrong = code === '000000' ? '111111' : '000000';
    await submitCode(page, wrong, s);
    await page.waitForLoadState();
    if (js()) await expect(f.submit).not.toHaveAttribute('aria-disabled', 'true');
    await expect(page).toHaveURL((u) => u.pathname === new URL(lookupUrl(c), 'http://x').pathname);
    await expect(f.email).toHaveValue(email);
    await expect(f.code).toHaveValue(wrong);
    // spec §8: a failed verify shows no message
    for (const role of ['alert', 'status'] as const) {
      for (const el of await page.getByRole(role).all()) {
        const text = ((await el.textContent()) ?? '').trim();
        expect(text === '' || text === (s['search.sendSuccess'] ?? ''), `no ${role} message after a wrong code (got "${text}")`).toBe(true);
      }
    }
    await expect(page.getByText(s['search.verifyFailed'] ?? '')).toHaveCount(0);
    // the right code still works afterwards
    await submitCode(page, code, s);
    await expectCredential(page, c, c.one, { qr: false });
  });
});

/**
 * Issue 31: the lookup islands hydrate on client:idle, after first paint; what the visitor typed
 * before that is read from the page when they hydrate, so nothing typed is lost. The islands'
 * module is held back until the e-mail is typed, then let through.
 */
test.describe('lookup: typed before hydration (issue 31)', { tag: '@js' }, () => {
  test('an e-mail typed before the islands hydrate is kept, and the send-code and look-up use it', async ({ page, request }) => {
    const c = caseOf('');
    let release = (): void => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route(/\/_astro\/lookup-islands\.[^/]*\.js/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(lookupUrl(c, '?mode=2'), { waitUntil: 'commit' });
    await expect(page.locator('[data-lookup]')).toBeAttached();
    const s = await texts(page);
    const f = form(page, s);
    const email = 'one@demo.test';
    await f.email.fill(email);
    // not hydrated yet: the islands are still the server's markup
    await expect(page.locator('astro-island[ssr]').first()).toBeAttached();
    await expect(page.locator('[data-lookup]:not([data-enhanced])')).toBeAttached();
    release();
    await hydrated(page);
    await expect(f.email).toHaveValue(email);
    // the send-code island and the form island read the typed e-mail from their store
    const code = await sendCode(page, request, email, s);
    await expect(f.email).toHaveValue(email);
    await submitCode(page, code, s);
    await expectCredential(page, c, c.one, { qr: false });
  });
});

test('eid() is base64url of the decimal without padding', { tag: '@http' }, () => {
  expect(eid(1308)).toBe('MTMwOA');
  expect(credentialPath(caseOf('IEAE'), 'ABC')).toBe('/IEAESuccess/MjEzMDg/QUJD/MTMwOA/21308/');
});
