/**
 * What a visitor needs to find the show and get in (the credential and lookup pages' "Visit"
 * block): the dates, the hall and address, what to bring, whom to contact. From the config's
 * `expoInfo` (docs/upstream.md "Records": startTime, endTime, hall, address, contactPhone,
 * contactEmail). Organiser text is shown as text; a phone or e-mail becomes a `tel:`/`mailto:`
 * link only when it reads as one (nothing else from the config becomes a link). Pure.
 */
import { BoundedMemo, remembered } from '../util/bounded-memo';
import { dateFormat } from '../util/intl-cache';

export interface VisitSource {
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
  hall?: string | null | undefined;
  address?: string | null | undefined;
  contactPhone?: string | null | undefined;
  contactEmail?: string | null | undefined;
}

export interface VisitInfo {
  /** "1 – 3 Dec 2026" in the page's language; null without both dates that read */
  dates: string | null;
  hall: string | null;
  address: string | null;
  phone: { text: string; href: string } | null;
  email: { text: string; href: string } | null;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/;
const PHONE = /^\+?[0-9][0-9 ()-]{4,24}$/;
const EMAIL = /^[^\s@<>"'`]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$/;
/** The BCP 47 tag of each catalogue's language, for the date format. */
const LOCALE: Readonly<Record<string, string>> = { zh: 'zh-CN', en: 'en-GB', thai: 'th-TH', vn: 'vi-VN', id: 'id-ID', tw: 'zh-TW', ms: 'ms-MY' };

function dayOf(text: string | null | undefined): Date | null {
  const m = DAY.exec(text?.trim() ?? '');
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCDate() === Number(m[3]) ? d : null;
}

const ranges = new BoundedMemo<string>(512);
/** "1–3 Dec 2026" in `locale`, remembered (issue 24: formatting a range costs more than the rest of the block). */
function dateRange(locale: string, start: Date, end: Date): string {
  return remembered(ranges, `${locale}|${start.getTime()}|${end.getTime()}`, () =>
    dateFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).formatRange(start, end),
  );
}

const text = (v: string | null | undefined, max: number): string | null => {
  const s = v?.trim().replace(/\s+/g, ' ') ?? '';
  return s === '' ? null : [...s].slice(0, max).join('');
};

/**
 * @example visitInfo({ startTime: '2026-12-01 09:00:00', endTime: '2026-12-03 17:00:00', contactPhone: '+86 20 8888' }, 'en')
 *   // { dates: '1–3 Dec 2026', hall: null, address: null, phone: { text: '+86 20 8888', href: 'tel:+86208888' }, email: null }
 */
export function visitInfo(src: VisitSource | null | undefined, lang: string): VisitInfo | null {
  if (!src) return null;
  const start = dayOf(src.startTime);
  const end = dayOf(src.endTime);
  let dates: string | null = null;
  if (start && end && start <= end) dates = dateRange(LOCALE[lang] ?? 'zh-CN', start, end);
  const phoneText = text(src.contactPhone, 30);
  const emailText = text(src.contactEmail, 254);
  const info: VisitInfo = {
    dates,
    hall: text(src.hall, 80),
    address: text(src.address, 200),
    phone: phoneText && PHONE.test(phoneText) ? { text: phoneText, href: `tel:${phoneText.replace(/[^0-9+]/g, '')}` } : null,
    email: emailText && EMAIL.test(emailText) ? { text: emailText, href: `mailto:${emailText}` } : null,
  };
  return Object.values(info).some((v) => v !== null) ? info : null;
}
