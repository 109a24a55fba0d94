/**
 * Nothing cut or overflowing at 320 px, in all seven languages (issue "A visitor in any of
 * seven languages", "Text that does not fit at 320 px"): the lookup, a registration form, the
 * credential, the ticket form, the pledge and the two-tab home, each opened once per language
 * (the `_h5_lang` cookie) at 320×640 with JavaScript on (the countdowns are the islands' text).
 *
 * On every page: the page does not scroll sideways (`scrollWidth` of the document ≤ 320), and no
 * button, tab, label, legend, heading or the header's event name has its text cut (its own
 * `scrollWidth` ≤ `clientWidth`, and it stays inside the viewport). The named buttons (send
 * code, search, submit, pledge confirm, book, home tabs, pay) also take at most two lines,
 * counted from the line boxes of their text.
 *
 * One lookup per test proves the contact a page needs (the verified-contact cookie serves all
 * seven languages); no fixed waits. `FIT_SHOTS=<dir>` also saves a full-page screenshot of each
 * page and language there (to look at them).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { HTML_LANG, baseUrl, lookUpByEmail, lookupPath, obtainCredentialPath, setLangCookie, t, type Lang, test } from './fixtures';
import { hydrated } from './lookup-helpers';
import { LANGS } from '../../src/lib/core/languages';
import { SENT_COOKIE } from '../../src/lib/lookup/resend';
import { encodeId } from '../../src/lib/util/ids';

const WIDTH = 320;

/** A catalogue text with a `{{n}}` count, as a pattern matching it with any number. */
const counting = (text: string): RegExp =>
  new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{\\{n\\}\\}', '\\d+'));

test.use({ viewport: { width: WIDTH, height: 640 } });

/** Elements checked on a page: `lines` also limits the text to two lines. */
interface Probe {
  what: string;
  selector: string;
  lines?: true;
  /** the page must show at least one */
  required?: true;
}

/** Checked on every page: nothing of these may be cut. */
const ANY_TEXT: Probe[] = [
  { what: 'event name', selector: '.shell-top .brand', required: true },
  { what: 'heading', selector: 'main h1, main h2, main h3' },
  { what: 'label', selector: 'main label, main legend' },
  { what: 'button', selector: 'main button, main .btn, main a.button' },
];

/** What a page's check found wrong, one line each (empty: it fits). */
async function misfits(page: Page, probes: Probe[]): Promise<string[]> {
  return page.evaluate(
    ({ probes, width }) => {
      const problems: string[] = [];
      const doc = document.documentElement.scrollWidth;
      if (doc > width) problems.push(`the page scrolls sideways: scrollWidth ${doc} > ${width}`);
      const shown = (el: Element): el is HTMLElement => {
        if (!(el instanceof HTMLElement) || el.closest('.visually-hidden, [hidden], dialog:not([open])')) return false;
        const r = el.getBoundingClientRect();
        // 1 px boxes are the hidden default buttons and labels kept for screen readers
        return r.width > 1 && r.height > 1 && getComputedStyle(el).display !== 'inline';
      };
      // the lines of an element's text: its text's boxes grouped by row
      const linesOf = (el: HTMLElement): number => {
        const style = getComputedStyle(el);
        const lh = Number.parseFloat(style.lineHeight) || 1.2 * Number.parseFloat(style.fontSize);
        const range = document.createRange();
        range.selectNodeContents(el);
        const tops = [...range.getClientRects()]
          .filter((r) => r.width > 0 && r.height > 0)
          .map((r) => r.top)
          .sort((a, b) => a - b);
        let lines = 0;
        let row = Number.NEGATIVE_INFINITY;
        for (const top of tops) {
          if (top > row + lh / 2) {
            lines += 1;
            row = top;
          }
        }
        return lines;
      };
      for (const p of probes) {
        const els = [...document.querySelectorAll(p.selector)].filter(shown);
        if (p.required && els.length === 0) problems.push(`${p.what}: not on the page (${p.selector})`);
        for (const el of els) {
          const text = (el.innerText || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim();
          const name = `${p.what} "${text}"`;
          if (el.scrollWidth > el.clientWidth + 1) problems.push(`${name}: cut (scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth})`);
          const box = el.getBoundingClientRect();
          if (box.left < -0.5 || box.right > width + 0.5) problems.push(`${name}: outside the viewport (${Math.round(box.left)}..${Math.round(box.right)})`);
          if (p.lines) {
            const n = linesOf(el);
            if (n > 2) problems.push(`${name}: ${n} lines`);
          }
        }
      }
      return problems;
    },
    { probes, width: WIDTH },
  );
}

/**
 * Opens `path` in each of the seven languages and checks it; `ready` waits for what the page
 * must show before it is measured. Fails once (softly), at the end, with every misfit of every
 * language.
 */
async function checkAll(
  page: Page,
  what: string,
  path: string | ((lang: Lang) => string),
  probes: Probe[],
  ready?: (lang: Lang) => Promise<void>,
): Promise<void> {
  const info = test.info();
  const found: string[] = [];
  const shots = process.env['FIT_SHOTS'];
  if (shots) mkdirSync(shots, { recursive: true });
  for (const lang of LANGS) {
    await setLangCookie(page.context(), lang, info);
    const url = typeof path === 'string' ? path : path(lang);
    const res = await page.goto(url);
    expect(res?.status(), `${what} (${lang}): status of ${url}`).toBe(200);
    await hydrated(page);
    if (ready) await ready(lang);
    const shown = (await page.locator('html').getAttribute('lang')) ?? '';
    for (const m of await misfits(page, [...ANY_TEXT, ...probes])) found.push(`${lang} (page in ${shown}): ${m}`);
    if (shots) await page.screenshot({ path: join(shots, `${what.replace(/\W+/g, '-')}-${lang}.png`), fullPage: true });
  }
  // soft: one test reports every page it checks
  expect.soft(found, `${what} at ${WIDTH} px`).toEqual([]);
}

test.describe('nothing is cut or overflows at 320 px, in seven languages', { tag: '@js' }, () => {
  test('the lookup (1261): send code, its countdown, search', async ({ page }) => {
    const lookup = lookupPath('ThaiNewSearch', 21261, 1261);
    const buttons: Probe[] = [
      { what: 'send code', selector: '.lookup-send', lines: true, required: true },
      { what: 'search', selector: '.lookup-submit', lines: true, required: true },
    ];
    await checkAll(page, 'lookup', lookup, buttons);
    // the send button's longest text: its countdown, rendered from the send time the server kept (src/lib/lookup/resend.ts)
    await page.context().addCookies([{ name: SENT_COOKIE, value: String(Math.floor(Date.now() / 1000)), url: baseUrl(test.info()) }]);
    await checkAll(page, 'lookup countdown', lookup, buttons, async (lang) => {
      await expect(page.locator('.lookup-send')).toHaveText(counting(t(lang, 'search.countdown')));
    });
  });

  test('a registration form (1308): submit', async ({ page }) => {
    const form = await lookUpByEmail(page.request, 'none@demo.test');
    await checkAll(page, 'registration form', form, [{ what: 'submit', selector: '.reg-submit', lines: true, required: true }]);
  });

  test('the credential (1308): the site booking\'s book buttons', async ({ page }) => {
    const credential = await obtainCredentialPath(page.request);
    await checkAll(page, 'credential', credential, [{ what: 'book', selector: '.site form button', lines: true, required: true }]);
  });

  test('the credential (1179, a long contact e-mail): it wraps after @, before a dot or after a hyphen, never mid-word', async ({ page }) => {
    const bangkok = { expoId: 1179, urlId: 21179, ty: 'visitor', variant: 'Bangkok', f: '', back: lookupPath('BangkokSearch', 21179, 1179) };
    const credential = await obtainCredentialPath(page.request, 'one@demo.test', bangkok);
    const midWord: string[] = [];
    await checkAll(page, 'credential 1179', credential, [], async (lang) => {
      const mail = page.locator('.visit a[href^="mailto:"]');
      await expect(mail).toHaveCount(1);
      // where the address's lines start: each character's box, a new line where its top moves down
      const { text, starts } = await mail.evaluate((a) => {
        const chars: { ch: string; top: number }[] = [];
        const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let i = 0; i < (node.textContent ?? '').length; i++) {
            const r = document.createRange();
            r.setStart(node, i);
            r.setEnd(node, i + 1);
            chars.push({ ch: node.textContent?.[i] ?? '', top: r.getBoundingClientRect().top });
          }
        }
        const lineStarts = chars.flatMap((c, i) => (i > 0 && c.top > (chars[i - 1]?.top ?? 0) + 4 ? [i] : []));
        return { text: chars.map((c) => c.ch).join(''), starts: lineStarts };
      });
      expect(text.length, `${lang}: the address is long`).toBeGreaterThan(40);
      expect(starts.length, `${lang}: it takes more than one line at 320 px`).toBeGreaterThan(0);
      for (const i of starts) {
        const fine = text[i - 1] === '@' || text[i] === '.' || text[i - 1] === '-';
        if (!fine) midWord.push(`${lang}: "${text.slice(0, i)}|${text.slice(i)}"`);
      }
    });
    expect.soft(midWord, 'the contact e-mail breaks mid-word').toEqual([]);
  });

  test('the ticket form (1216 in Chinese, 2002 in English: both force their language; 1261 in every language): pay', async ({ page }) => {
    const buy: Probe[] = [
      { what: 'pay', selector: '.reg-submit', lines: true, required: true },
      { what: 'discount check', selector: '.discount-row .btn', lines: true, required: true },
    ];
    for (const [expoId, ticketId, forced, variant] of [
      [1216, 1, 'zh', ''],
      [2002, 21, 'en', ''],
      // 1261 (THB) follows the visitor's language: its ticket form in all seven (issue 23)
      [1261, 23, null, 'ThaiNew'],
    ] as const) {
      const fId = 20000 + expoId;
      // the first lookup's send started the 60 s resend wait in this browser (src/lib/lookup/resend.ts)
      await page.context().clearCookies({ name: SENT_COOKIE });
      await lookUpByEmail(page.request, 'none@demo.test', { expoId, urlId: fId, ty: 'visitor', variant, f: '', back: lookupPath(`${variant}${variant ? 'Search' : 'search'}`, fId, expoId) });
      const path = `${lookupPath('ticketForm', fId, expoId)}?ticketId=${ticketId}`;
      await checkAll(page, `ticket form ${expoId}`, path, buy, async (lang) => {
        await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[forced ?? lang]);
      });
    }
  });

  test('the pledge (2012\'s lookup): its countdown', async ({ page }) => {
    await checkAll(page, 'pledge', lookupPath('search', 22012, 2012), [{ what: 'pledge confirm', selector: '.pledge-form .btn', lines: true, required: true }], async (lang) => {
      // the countdown's text (longer than the confirm's), from the island
      await expect(page.locator('.pledge-form .btn')).toHaveText(counting(t(lang, 'pledge.countdown')));
    });
  });

  test('the two-tab home (1177 with the organiser\'s tab names, 2003 with ours): tabs', async ({ page }) => {
    const home: Probe[] = [
      { what: 'home tab', selector: '.home-tabs .tab', lines: true, required: true },
      { what: 'home button', selector: '.home-actions .button', lines: true, required: true },
    ];
    await checkAll(page, 'home 1177', `/21177/${encodeId(1177)}/visitor`, home);
    await checkAll(page, 'home 2003', `/22003/${encodeId(2003)}/visitor`, home);
  });
});
