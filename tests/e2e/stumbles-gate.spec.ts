/**
 * Issue 14 ("What a new visitor stumbles on"), the gate's part, in Debian's Chromium against the
 * built Worker, JS on and off:
 * 1. the registration code on the credential page in groups of 4, in a font that marks the zero,
 *    each group on one line at 320 px, no horizontal scroll, axe clean, in all seven languages;
 *    one string for a copy, character by character for a screen reader; a line saying why to
 *    save the QR image;
 * 2. the /applyList page (the no-JS selection list) shows the event's name and banner as the
 *    lookup page under the JS popup does (zh, en, thai); a credential picked from it links back
 *    to it (issue 23, 'All my registrations (n)');
 * 3. Thai pages render in a Thai font (fonts-thai-tlwg, README's apt line).
 */
import { expect, type Page } from '@playwright/test';
import { CODE_GROUP_SIZE, codeGroups, spokenCode } from '../../src/lib/lookup/code-groups';
import { expectAxeClean } from './axe';
import { HTML_LANG, setLangCookie, t, type Lang, test } from './fixtures';
import { caseOf, credentialPath, js, lookupByEmail, lookupUrl, openLookup, storedPath } from './lookup-helpers';

const LANGS: readonly Lang[] = ['zh', 'en', 'thai', 'vn', 'id', 'tw', 'ms'];
const IEAE = caseOf('IEAE');
const CODE = IEAE.one.euCode;
const PATH = `${credentialPath(IEAE, CODE)}?f=e2e`;
/** Fonts with a marked zero that Debian's Chromium has (fonts-dejavu-core, fonts-liberation). */
const MARKED_ZERO_FONTS = /^(DejaVu Sans Mono|Liberation Mono)$/;
/** The Thai families of fonts-thai-tlwg. */
const THAI_FONTS = /^(Loma|Garuda|Kinnari|Laksaman|Norasi|Purisa|Sawasdee|Umpush|Waree|Tlwg .+)$/;

/** The font families Chromium rendered an element's own text with (DevTools protocol: works with JS off). */
async function renderedFonts(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((f) => f.familyName);
  } finally {
    await cdp.detach();
  }
}

/** The layout of the code's groups: rectangles per group (one when it is not split) and the line height. */
async function groupLayout(page: Page) {
  return page.locator('dd.code').evaluate((dd) => {
    const lineHeight = parseFloat(getComputedStyle(dd).lineHeight);
    const groups = Array.from(dd.querySelectorAll('.group')).map((g) => {
      const rects = Array.from(g.getClientRects());
      const r = g.getBoundingClientRect();
      return { text: g.textContent ?? '', lines: rects.length, top: r.top, height: r.height, left: r.left, right: r.right };
    });
    return { lineHeight, fontSize: parseFloat(getComputedStyle(dd).fontSize), height: dd.getBoundingClientRect().height, groups };
  });
}

test.describe('credential page at the gate: the code in groups of 4 (issue 14)', () => {
  test.use({ viewport: { width: 320, height: 800 } });

  for (const lang of LANGS) {
    test(`${lang}: groups on one line each, no overflow at 320 px, a marked zero, axe clean`, async ({ page, browser, context }) => {
      await setLangCookie(context, lang, test.info());
      const res = await page.goto(PATH);
      expect(res?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
      const code = page.locator('dd.code');
      await expect(code).toBeVisible();
      // one string in the DOM: no character between the groups
      await expect(code).toHaveText(CODE);
      await expect(code.locator('.group')).toHaveText(codeGroups(CODE));

      const layout = await groupLayout(page);
      expect(layout.groups.map((g) => g.text)).toEqual(['IWHB', 'ZIMY', 'EOZE', 'TLFI']);
      for (const g of layout.groups) {
        expect(g.lines, `group ${g.text} is not split over two lines`).toBe(1);
        expect(g.height, `group ${g.text} is one line high`).toBeLessThanOrEqual(layout.lineHeight);
        expect(g.right).toBeLessThanOrEqual(320);
      }
      // 16 characters fit on one line at 320 px: the groups sit side by side, in order, apart
      const [first] = layout.groups;
      for (const [i, g] of layout.groups.entries()) {
        expect(Math.abs(g.top - (first?.top ?? 0)), `group ${g.text} on the first line`).toBeLessThan(1);
        const prev = layout.groups[i - 1];
        if (prev) expect(g.left - prev.right, `a gap before ${g.text}`).toBeGreaterThan(4);
      }
      expect(layout.height).toBeLessThanOrEqual(layout.lineHeight + 1);
      // large enough to read aloud
      expect(layout.fontSize).toBeGreaterThanOrEqual(22);
      // no horizontal scroll
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      // what Debian's Chromium renders the code in: a font whose zero is marked (a CJK
      // monospace, where 0 and O look alike, or a proportional fallback would fail here)
      const fonts = await renderedFonts(page, 'dd.code .group');
      expect(fonts.length).toBeGreaterThan(0);
      for (const f of fonts) expect(f, `the code's font in ${lang}`).toMatch(MARKED_ZERO_FONTS);
      // the line that says why to save the QR image, by the save link
      const save = page.getByRole('link', { name: t(lang, 'success.saveImage') });
      await expect(save).toBeVisible();
      await expect(page.getByText(t(lang, 'success.saveWhy'), { exact: true })).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`credential-320-${lang}.png`), fullPage: true });
      await expectAxeClean(page, browser, `the credential page in ${lang}`);
    });
  }

  test('a screen reader gets the code character by character in groups; the visible groups are hidden from it', async ({ page }) => {
    await page.goto(PATH);
    const caption = page.locator('figure figcaption dl');
    await expect(caption).toMatchAriaSnapshot(`
      - term: ${t('zh', 'success.code')}
      - definition: ${spokenCode(CODE)}
    `);
    expect(spokenCode(CODE)).toBe('I W H B, Z I M Y, E O Z E, T L F I');
    // the spoken copy is out of sight and out of the selection
    const spoken = page.locator('dd.spoken');
    await expect(spoken).toHaveText(spokenCode(CODE));
    const box = await spoken.boundingBox();
    expect((box?.width ?? 0) * (box?.height ?? 0)).toBeLessThanOrEqual(1);
    expect(await spoken.evaluate((el) => getComputedStyle(el).userSelect)).toBe('none');
  });

  test('a digit zero gets a dot that keeps the monospace cell (the seeded codes are base32, without 0: one is put in)', async ({ page }) => {
    await page.goto(PATH);
    const result = await page.locator('dd.code .group').nth(1).evaluate((group) => {
      // a zero marked as RegistrationCode.astro marks it (codeParts), with the component's scope attribute
      const scope = Array.from(group.attributes).find((a) => a.name.startsWith('data-astro-cid'))?.name ?? '';
      const zero = document.createElement('span');
      zero.className = 'zero';
      if (scope) zero.setAttribute(scope, '');
      zero.textContent = '0';
      const plain = group.getBoundingClientRect().width;
      group.replaceChildren('ZI', zero, 'Y');
      const after = getComputedStyle(zero, '::after');
      return {
        plain,
        marked: group.getBoundingClientRect().width,
        text: group.textContent,
        display: after.display,
        width: parseFloat(after.width),
        fontSize: parseFloat(getComputedStyle(zero).fontSize),
        dot: after.backgroundColor,
        ink: getComputedStyle(zero).color,
      };
    });
    expect(result.text).toBe('ZI0Y');
    expect(result.display).toBe('inline-block');
    expect(result.width / result.fontSize).toBeCloseTo(0.16, 2);
    expect(result.dot).toBe(result.ink);
    // the dot is drawn back over the zero: the group is as wide as with four letters
    expect(Math.abs(result.marked - result.plain)).toBeLessThan(0.5);
  });

  test('a copy gets the code as one string: a long-press (double-click) word selection and a whole-line selection', async ({ page }) => {
    await page.goto(PATH);
    const groups = page.locator('dd.code .group');
    await expect(groups).toHaveCount(Math.ceil(CODE.length / CODE_GROUP_SIZE));
    // a word selection from any group takes the whole code, no space, nothing of the spoken copy
    for (const i of [0, 2]) {
      await groups.nth(i).dblclick();
      expect(await page.evaluate(() => getSelection()?.toString() ?? '')).toBe(CODE);
    }
    await page.locator('dd.code').click({ clickCount: 3 });
    expect((await page.evaluate(() => getSelection()?.toString() ?? '')).trim()).toBe(CODE);
  });
});

test.describe('the list without JavaScript shows the event like the lookup page under the popup (issue 14)', () => {
  for (const lang of ['zh', 'en', 'thai'] as const) {
    test(`${lang}: event name and banner on /applyList as on the lookup page`, async ({ page, request, context }) => {
      await setLangCookie(context, lang, test.info());
      const s = await openLookup(page, lookupUrl(IEAE));
      const hero = page.locator('.hero img');
      await expect(hero).toHaveCount(1);
      const heroSrc = (await hero.getAttribute('src')) ?? '';
      expect(heroSrc).not.toBe('');
      const name = ((await page.locator('main .event').textContent()) ?? '').trim();
      expect(name).not.toBe('');
      const lookupTitle = await page.title();

      await lookupByEmail(page, request, 'several@demo.test', s);
      const listPath = `/applyList/${storedPath(IEAE)}`;
      if (js()) {
        // the popup opens over the lookup page, which shows the event's name and banner
        await expect(page.getByRole('dialog', { name: t(lang, 'search.selectTitle') })).toBeVisible();
        await expect(page.locator('.hero img')).toHaveAttribute('src', heroSrc);
        await expect(page.getByRole('main').getByText(name, { exact: true })).toBeVisible();
        // the no-JS list, opened directly, says the same
        await page.goto(`${listPath}?v=${IEAE.name}&f=`);
      }
      await expect(page).toHaveURL((u) => u.pathname === listPath);
      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
      await expect(page.getByRole('heading', { level: 1, name: t(lang, 'search.selectTitle') })).toBeVisible();
      await expect(page.getByRole('main').getByRole('link')).toHaveCount(3);
      await expect(page.locator('.hero img')).toHaveAttribute('src', heroSrc);
      await expect(page.locator('.hero img')).toBeVisible();
      await expect(page.getByRole('main').getByText(name, { exact: true })).toBeVisible();
      // The organiser's formTitle is Chinese: on a Chinese page both pages carry it (spec §4); on
      // another language's page neither does (README "The registration form": titles in their own
      // language), and the list names itself with the event.
      if (lang === 'zh') await expect(page).toHaveTitle(lookupTitle);
      else await expect(page).toHaveTitle(`${t(lang, 'apply.title')} · ${name}`);
      // issue 23: a credential picked from the list links back to it while the proof lasts, no new code
      const rows = page.getByRole('main').getByRole('link');
      await rows.first().click();
      await expect(page.locator('dd.code')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
      const back = page.getByRole('link', { name: t(lang, 'success.allMine').replace('{{n}}', '3') });
      await expect(back).toHaveAttribute('href', new RegExp(`^${listPath}\\?`));
      await back.click();
      await expect(page).toHaveURL((u) => u.pathname === listPath);
      await expect(page.getByRole('heading', { level: 1, name: t(lang, 'search.selectTitle') })).toBeVisible();
      await expect(page.getByRole('main').getByRole('link')).toHaveCount(3);
    });
  }
});

test.describe('Thai pages are readable in screenshots (fonts-thai-tlwg)', () => {
  test('the Thai credential page renders its Thai text in a Thai font', async ({ page, context }) => {
    await setLangCookie(context, 'thai', test.info());
    await page.goto(PATH);
    await expect(page.getByRole('heading', { level: 1, name: t('thai', 'success.title') })).toBeVisible();
    const fonts = await renderedFonts(page, 'h1');
    expect(fonts.some((f) => THAI_FONTS.test(f)), `fonts of the Thai title: ${fonts.join(', ')}; install fonts-thai-tlwg (README)`).toBe(true);
  });
});
