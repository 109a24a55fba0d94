import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES, createT, createTranslator, isTranslationKey, pick, type TranslationKey } from '../../src/i18n/index';
import { LANGS, htmlLang, type Lang } from '../../src/lib/core/languages';

const en: Readonly<Record<string, string>> = MESSAGES.en;
const enKeys = Object.keys(en).sort();
/** A plural form a language without it leaves out (`_one` in Thai, Vietnamese, Indonesian, Malay, Chinese). */
const optionalIn = (lang: Lang, key: string): boolean =>
  key.endsWith('_one') && !new Intl.PluralRules(htmlLang(lang)).resolvedOptions().pluralCategories.includes('one');
const catalogue = (lang: Lang): Readonly<Record<string, string>> => MESSAGES[lang];
const placeholders = (value: string): string[] => [...value.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();

/** Values that are rightly the same in English and another language (international words). */
const SAME_AS_ENGLISH_ALLOWED = new Set(['OK', 'Media']);

/** Keys the spec names (brief of this module); each must exist, so renaming one is a visible change. */
const REQUIRED_KEYS: readonly TranslationKey[] = [
  'app.title', 'app.loading', 'app.back', 'app.close', 'app.language', 'app.skip', 'footer.provider',
  'notFound.title', 'notFound.text', 'notFound.home',
  'search.visitorTitle', 'search.buyerTitle', 'search.exhibitorTitle', 'search.exhibitorManual',
  'search.exhibitorRegistration', 'search.visitorRegistration', 'search.modePhone', 'search.modeEmail',
  'search.country', 'search.countrySearch', 'search.selectCountry', 'search.phone', 'search.phonePlach',
  'search.codeError', 'search.email', 'search.emailPlach', 'search.emailError', 'search.code',
  'search.codePlach', 'search.codeDigits', 'search.sendCode', 'search.sending', 'search.countdown',
  'search.reget', 'search.sendSuccess', 'search.submit', 'search.nodata', 'search.otherError',
  'search.selectTitle', 'search.verifyFailed', 'search.codeSentTo',
  'class.0', 'class.2', 'class.3', 'class.4', 'class.5', 'class.6', 'class.7', 'class.8', 'class.9',
  'idType.1', 'idType.2', 'idType.3', 'idType.4', 'idType.5', 'idType.6',
  'success.title', 'success.code', 'success.useStatus', 'success.used', 'success.unused', 'success.usedCount',
  'success.maxCount', 'success.unlimited', 'success.awaitingReview', 'success.name', 'success.company',
  'success.event', 'success.print', 'success.qrAlt',
  'form.idNumberIllegal', 'form.phoneIncorrect', 'form.supplement', 'form.otherOptions', 'form.privacy',
  'form.discountTimes', 'form.updatePrompt', 'form.update', 'form.noUpdate', 'form.submit', 'form.required',
  'seat.nameRequired', 'seat.companyRequired', 'seat.noSeat', 'seat.title', 'seat.query', 'seat.name',
  'seat.company', 'seat.seat', 'home.camera', 'home.cameraTip', 'home.cameraButton', 'home.register',
  'home.query', 'home.ticket', 'home.registerTitle', 'banner.jumpError', 'share.invites', 'share.failed',
  'error.generic', 'error.notFoundMethod', 'error.server', 'error.offline', 'error.expoOver',
  'error.submissionExpired', 'error.relatedData', 'error.noData', 'error.uploadFailed', 'error.openingSoon',
  'error.timeout', 'error.chunkLoad',
  'order.unpaid', 'order.pendingReview', 'order.paid', 'order.cancelled', 'order.timedOut',
  'order.refundApplied', 'order.cancelRefund',
  'ticket.name', 'ticket.sold', 'ticket.saleDate', 'ticket.originalPrice', 'ticket.currentPrice',
  'ticket.quantity', 'ticket.paymentMethod', 'ticket.discountCode', 'ticket.totalFee', 'ticket.paymentStatus',
  'ticket.refundRecord', 'ticket.payApp', 'ticket.payMessaging',
];

/** The text of every .ts, .tsx, .astro and .mjs file under the directories (the catalogues left out). */
function sources(dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|tsx|astro|mjs)$/.test(e.name))
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8')),
  );
}

describe('catalogues (src/i18n/<lang>.json)', () => {
  it('has one catalogue per language', () => {
    expect(Object.keys(MESSAGES).sort()).toEqual([...LANGS].sort());
  });

  it('holds every key the spec names', () => {
    const missing = REQUIRED_KEYS.filter((key) => !(key in en));
    expect(missing, 'missing in en.json').toEqual([]);
  });

  it('names keys area.element in camelCase', () => {
    // A plural form ends in its CLDR category: `site.placesLeft_one`, `site.placesLeft_other`.
    const bad = enKeys.filter((key) => !/^[a-z][A-Za-z0-9]*\.[A-Za-z0-9]+(?:_(?:one|other))?$/.test(key));
    expect(bad).toEqual([]);
  });

  it.each(LANGS)('%s has exactly the keys of en.json', (lang) => {
    const keys = new Set(Object.keys(catalogue(lang)));
    const missing = enKeys.filter((key) => !keys.has(key) && !optionalIn(lang, key));
    const extra = [...keys].filter((key) => !(key in en));
    // One assertion, so a run names both the missing and the extra keys.
    expect({ missing, extra }, `${lang}.json against en.json`).toEqual({ missing: [], extra: [] });
  });

  it.each(LANGS)('%s has no empty value', (lang) => {
    const empty = Object.entries(catalogue(lang))
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([key]) => key);
    expect(empty, `empty values in ${lang}.json`).toEqual([]);
  });

  it.each(LANGS)('%s uses the same {{placeholders}} as en for each key', (lang) => {
    const messages = catalogue(lang);
    const differing = enKeys
      .filter((key) => messages[key] !== undefined)
      .filter((key) => placeholders(messages[key] ?? '').join() !== placeholders(en[key] ?? '').join())
      .map((key) => `${key}: ${lang}=[${placeholders(messages[key] ?? '').join()}] en=[${placeholders(en[key] ?? '').join()}]`);
    expect(differing).toEqual([]);
  });

  it.each(['thai', 'vn', 'id', 'ms'] as const)('%s is a translation, not a copy of English', (lang) => {
    const messages = catalogue(lang);
    const same = enKeys.filter((key) => messages[key] === en[key] && !SAME_AS_ENGLISH_ALLOWED.has(en[key] ?? ''));
    expect(same.length / enKeys.length, `same as en: ${same.join(', ')}`).toBeLessThan(0.1);
  });

  it("keeps no credential-page key (success.*) that nothing reads (issue 23 review: success.endTime)", () => {
    // Every success.* key is read by its literal name (no code builds one: `success.${…}` occurs
    // nowhere); the spec's own names (REQUIRED_KEYS) stay whether read or not.
    const code = sources(['src', 'functions']).join('\n');
    const unread = enKeys.filter((key) => key.startsWith('success.') && !REQUIRED_KEYS.includes(key as TranslationKey) && !['\'', '"', '`'].some((q) => code.includes(`${q}${key}${q}`)));
    expect(unread).toEqual([]);
    expect(code).not.toMatch(/[`'"]success\.\$\{|[`'"]success\.['"`]\s*\+/);
  });

  it('zh and tw are Chinese, not English', () => {
    const han = /\p{Script=Han}/u;
    for (const lang of ['zh', 'tw'] as const) {
      const messages = catalogue(lang);
      const latinOnly = enKeys.filter((key) => !han.test(messages[key] ?? ''));
      expect(latinOnly.length / enKeys.length, `${lang} without Han: ${latinOnly.join(', ')}`).toBeLessThan(0.05);
    }
  });

  it('tw is Traditional Chinese, not the zh file again', () => {
    const zh = catalogue('zh');
    const tw = catalogue('tw');
    // Short words like 返回 or 姓名 are written the same in both scripts; most strings are not.
    const same = enKeys.filter((key) => zh[key] === tw[key]);
    expect(same.length / enKeys.length, `same as zh: ${same.join(', ')}`).toBeLessThan(0.15);
    // Characters that exist in one script only must not leak into the other file.
    const simplifiedOnly = /[这个们时说国会来对为发过学见长门问间听车东书马鸟语话读写买卖钱页码录证询号网络邮验输请选择获审护员态数]/u;
    const traditionalOnly = /[這個們時說國會來對為發過學見長門問間聽車東書馬鳥語話讀寫買賣錢頁碼錄證詢號網絡郵驗輸請選擇獲審護員態數]/u;
    const leakedIntoTw = enKeys.filter((key) => simplifiedOnly.test(tw[key] ?? '')).map((key) => `${key}: ${tw[key]}`);
    const leakedIntoZh = enKeys.filter((key) => traditionalOnly.test(zh[key] ?? '')).map((key) => `${key}: ${zh[key]}`);
    expect(leakedIntoTw, 'Simplified characters in tw.json').toEqual([]);
    expect(leakedIntoZh, 'Traditional characters in zh.json').toEqual([]);
  });
});

describe('createT', () => {
  it('translates into each language', () => {
    expect(createT('en')('search.sendCode')).toBe('Get code');
    expect(createT('zh')('search.sendCode')).toBe('获取验证码');
    expect(createT('tw')('search.sendCode')).toBe('取得驗證碼');
    for (const lang of LANGS) expect(createT(lang)('app.title')).toBe(catalogue(lang)['app.title']);
  });

  it('interpolates {{vars}}, numbers included', () => {
    expect(createT('en')('search.countdown', { n: 59 })).toBe('Resend in 59 s');
    expect(createT('en')('error.server', { status: 500 })).toBe('Server error: 500');
    expect(createT('zh')('share.invites', { name: '张三' })).toBe('张三邀请您参观');
    expect(createT('vn')('search.codeSentTo', { contact: 'a@b.co' })).toBe('Mã đã được gửi đến a@b.co');
  });

  it('does not escape values (Astro and React escape on render)', () => {
    expect(createT('en')('share.invites', { name: 'A & <B>' })).toBe('A & <B> invites you to visit');
  });

  it('treats values as text: no nesting or second interpolation from user input', () => {
    expect(createT('en')('share.invites', { name: '$t(app.title) {{n}}' })).toBe('$t(app.title) {{n}} invites you to visit');
  });

  it('keeps variables apart from i18next options', () => {
    expect(createT('en')('share.invites', { lng: 'zh', name: 'Ann' })).toBe('Ann invites you to visit');
  });

  it('returns the same translator for a language every time', () => {
    expect(createT('thai')).toBe(createT('thai'));
  });

  it('falls back to zh for a missing or empty key', () => {
    const createPartialT = createTranslator<'a' | 'b' | 'c'>({
      zh: { a: '甲', b: '乙', c: '丙' },
      en: { a: 'A', c: '' } as Record<'a' | 'b' | 'c', string>,
    });
    expect(createPartialT('en')('a')).toBe('A');
    expect(createPartialT('en')('b')).toBe('乙');
    expect(createPartialT('en')('c')).toBe('丙');
    expect(createPartialT('ms')('a')).toBe('甲');
  });
});

describe('pick', () => {
  it('builds the strings an island gets as props', () => {
    const t = createT('id');
    expect(pick(t, ['search.sendCode', 'search.reget'])).toEqual({
      'search.sendCode': 'Dapatkan kode',
      'search.reget': 'Kirim ulang',
    });
    expect(pick(t, [])).toEqual({});
  });
});

describe('isTranslationKey', () => {
  it('narrows computed keys', () => {
    expect(isTranslationKey('class.3')).toBe(true);
    expect(isTranslationKey('class.1')).toBe(false);
    expect(isTranslationKey('toString')).toBe(false);
  });
});
