/**
 * The shared link offline (src/lib/page/offline-list.ts): which stored copies belong to which
 * expo, which path names an expo, and the offline list itself (never another expo's copy).
 */
import { describe, expect, it } from 'vitest';
import { copyMetaHeader, expoOfLink, langOfContent, offlineListPage, readCopyMeta, voidedCopies, type CopyMeta, type StoredCopy } from '../../src/lib/page/offline-list';
import { routePath, type TicketScreen } from '../../src/lib/core/routes';
import { ALL_VARIANTS } from '../../src/lib/core/variants';
import { htmlLang, LANGS } from '../../src/lib/core/languages';
import { swTexts } from '../../functions/service-worker';

const { words, htmlLangs } = swTexts();

describe('the copy header', () => {
  it('round-trips what a copy is', () => {
    const meta: CopyMeta = { expo: 1216, kind: 'ticket', codes: ['T1AAA', 'T2BBB'], offset: 480, lang: 'thai' };
    expect(readCopyMeta(copyMetaHeader(meta))).toEqual(meta);
    expect(copyMetaHeader(meta)).toMatch(/^[\x20-\x7e]+$/);
  });
  it('reads nothing from a missing, partial or odd header', () => {
    for (const v of [null, undefined, '', 'e=1308', 'e=x&k=credential&c=A&o=480&l=en', 'e=1308&k=other&c=A&o=480&l=en', 'e=1308&k=credential&c=<b>&o=480&l=en', 'x'.repeat(3000)]) {
      expect(readCopyMeta(v), String(v)).toBeNull();
    }
  });
});

describe('the expo a link names', () => {
  const ids = { fId: 21308, expoId: 1308, ty: 'visitor' };
  it('the event home, every lookup and the purchase pages', () => {
    expect(expoOfLink(routePath({ screen: 'home', params: ids }))).toBe(1308);
    expect(expoOfLink(routePath({ screen: 'home', params: { ...ids, ty: '' } }))).toBe(1308);
    expect(expoOfLink(routePath({ screen: 'home', params: ids, auto: true }))).toBe(1308);
    for (const variant of [null, ...ALL_VARIANTS]) expect(expoOfLink(routePath({ screen: 'search', variant, params: ids })), variant?.name).toBe(1308);
    for (const which of ['ticket', 'orderDetails', 'ticketSuccess', 'orderList'] as TicketScreen[]) expect(expoOfLink(routePath({ screen: 'ticket', which, params: ids }))).toBe(1308);
    // an older link with a plain decimal expo id, and standard base64 with padding
    expect(expoOfLink('/21308/1308/visitor')).toBe(1308);
    expect(expoOfLink('/search/21216/MTIxNg==/visitor')).toBe(1216);
  });
  it('nothing for a credential, an image, the API, the gate or anything else', () => {
    const credential = routePath({ screen: 'credential', variant: null, params: { urlId: 21308, euCode: 'ABC', expoId: 1308, fId: 21308 } });
    for (const path of [credential, '/qr/MjEzMDg/QUJD/MTMwOA/21308.png', '/api/lookup/21308/MTMwOA', '/gate/MTMwOA/stats', '/', '/sw.js', '/search/21308', '/search/21308/!!!/visitor', '/21308/MTMwOA/visitor/extra', '/21308/MA/visitor']) {
      expect(expoOfLink(path), path).toBeNull();
    }
  });
});

describe('the offline list of an expo', () => {
  const day = Date.UTC(2026, 11, 1, 1, 20); // 09:20 in UTC+8
  const copy = (url: string, meta: Partial<CopyMeta>, savedAt: number): StoredCopy => ({
    url,
    meta: { expo: 1308, kind: 'credential', codes: ['CODE1'], offset: 480, lang: 'en', ...meta },
    savedAt,
  });
  const copies = [
    copy('/success/a/Q09ERTE/MTMwOA/21308', {}, day - 3_600_000),
    copy('/success/a/Q09ERTE/MTMwOA/21308?f=x', {}, day), // the same credential, stored later under another URL
    copy('/ticketSuccess/21308/MTMwOA/visitor?orderNo=ORD123', { kind: 'ticket', codes: ['T1', 'T2'] }, day - 60_000),
    copy('/success/a/T1RIRVI/MTIxNg/21216', { expo: 1216, codes: ['OTHER'] }, day),
  ];

  it('lists the copies of this expo only, one per credential or order, newest first, with when each was updated', () => {
    const shown = offlineListPage(copies, 1308, 'en', day + 60_000, words, htmlLangs);
    expect(shown?.entries).toEqual([
      { href: '/success/a/Q09ERTE/MTMwOA/21308?f=x', label: 'Registration CODE1', updated: 'Last updated 09:20' },
      { href: '/ticketSuccess/21308/MTMwOA/visitor?orderNo=ORD123', label: 'E-ticket T1, T2', updated: 'Last updated 09:19' },
    ]);
    expect(shown?.html).not.toContain('OTHER');
    expect(shown?.html).toContain('<html lang="en">');
    expect(offlineListPage(copies, 1216, 'en', day, words, htmlLangs)?.entries.map((e) => e.label)).toEqual(['Registration OTHER']);
  });

  it('nothing for an expo with no copy here (the browser shows its own offline page)', () => {
    expect(offlineListPage(copies, 1179, 'en', day, words, htmlLangs)).toBeNull();
    expect(offlineListPage([], 1308, 'en', day, words, htmlLangs)).toBeNull();
  });

  it('a copy of an earlier day says its date, in the language’s order; the page speaks the language asked', () => {
    const nextDay = day + 24 * 3_600_000;
    expect(offlineListPage(copies, 1308, 'en', nextDay, words, htmlLangs)?.entries[0]?.updated).toBe('Last updated 01/12/2026 09:20');
    const zh = offlineListPage(copies, 1308, 'zh', nextDay, words, htmlLangs);
    expect(zh?.entries[0]).toEqual({ href: '/success/a/Q09ERTE/MTMwOA/21308?f=x', label: '登记码 CODE1', updated: '最后更新于 2026-12-01 09:20' });
    expect(zh?.html).toContain('<html lang="zh-CN">');
    for (const lang of LANGS) expect(offlineListPage(copies, 1308, lang, day, words, htmlLangs)?.html, lang).toContain(`<html lang="${htmlLang(lang)}">`);
  });

  it('escapes what it shows and links only this site', () => {
    const odd = [copy('/success/"><script>x</script>', {}, day), copy('https://evil.example/x', { codes: ['EVIL'] }, day)];
    const shown = offlineListPage(odd, 1308, 'en', day, words, htmlLangs);
    expect(shown?.html).not.toContain('<script>');
    expect(shown?.html).not.toContain('evil.example');
  });

  it('every language has its words, and the Content-Language of a page names its catalogue', () => {
    for (const lang of LANGS) {
      expect(Object.values(words[lang] ?? {}).every((w) => w.trim() !== ''), lang).toBe(true);
      expect(langOfContent(htmlLang(lang), htmlLangs)).toBe(lang);
    }
    expect(langOfContent('fr', htmlLangs)).toBeNull();
  });
});

describe('the copies a fresh answer makes void (issue 23 review: a refunded order\'s second page stayed listed)', () => {
  const ids = { fId: 21216, expoId: 1216, ty: 'visitor' };
  const details = `${routePath({ screen: 'ticket', which: 'orderDetails', params: ids })}?orderNo=ORD1`;
  const tickets = `${routePath({ screen: 'ticket', which: 'ticketSuccess', params: ids })}?orderNo=ORD1`;
  const otherOrder = `${routePath({ screen: 'ticket', which: 'ticketSuccess', params: ids })}?orderNo=ORD2`;
  const credential = routePath({ screen: 'credential', variant: null, params: { urlId: 21216, euCode: 'ABC', expoId: 1216, fId: 21216 } });
  const otherCredential = routePath({ screen: 'credential', variant: null, params: { urlId: 21216, euCode: 'XYZ', expoId: 1216, fId: 21216 } });
  const stored = [details, tickets, otherOrder, credential, `${credential}?f=x`, otherCredential];

  it('a refunded order (200, no longer kept) or one gone (404, 410): both of its pages go, no other order', () => {
    for (const status of [200, 404, 410]) {
      expect(voidedCopies(details, status, false, stored), String(status)).toEqual([details, tickets]);
      expect(voidedCopies(tickets, status, false, stored), String(status)).toEqual([details, tickets]);
    }
  });
  it('a void or gone credential: every copy of it (any query), no other', () => {
    expect(voidedCopies(credential, 404, false, stored)).toEqual([credential, `${credential}?f=x`]);
    expect(voidedCopies(`${credential}?f=x`, 200, false, stored)).toEqual([credential, `${credential}?f=x`]);
  });
  it('a page still kept, or an answer that says nothing of the copy (5xx, 429, 403), drops none', () => {
    expect(voidedCopies(details, 200, true, stored)).toEqual([]);
    for (const status of [500, 502, 503, 429, 403]) expect(voidedCopies(details, status, false, stored), String(status)).toEqual([]);
    expect(voidedCopies('/orderDetails/21216/MTIxNg/visitor', 404, false, stored), 'no order number: no order').toEqual([]);
  });
  it('works as the worker embeds it: from its own source alone', () => {
    const copy = new Function(`return ${voidedCopies.toString()}`)() as typeof voidedCopies;
    expect(copy(tickets, 200, false, stored)).toEqual([details, tickets]);
  });
});
