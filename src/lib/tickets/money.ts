/**
 * Money and clocks of an expo: prices travel in minor units (docs/upstream.md "Seats,
 * tickets, orders": fen, satang, sen) and times as expo-local text, but the wire names neither
 * the currency nor the expo's UTC offset. This table does (README "Beyond docs/upstream.md"); an
 * expo not listed is a mainland expo: CNY, UTC+8. Pure: no framework, no zod.
 */
import { htmlLang, type Lang } from '../core/languages';
import { numberFormat } from '../util/intl-cache';

/** What the page needs to show an expo's prices and times. */
export interface ExpoMarket {
  /** ISO 4217 code */
  currency: string;
  /** expo-local time minus UTC, in minutes (createtime, expireTime are expo-local) */
  utcOffsetMinutes: number;
}

/** The default market: mainland China. */
export const DEFAULT_MARKET: ExpoMarket = { currency: 'CNY', utcOffsetMinutes: 480 };

/**
 * Expos that sell tickets in another currency or lie in another zone (the reference's seed: 2002
 * sells in SGD). Every expo outside UTC+8 must be listed, or its times (holds, sale windows, the
 * gate's "today") are read an hour off: tests/unit/locale-times.test.ts holds this table to the
 * seed's `utc_offset_minutes`.
 */
const MARKETS: ReadonlyMap<number, ExpoMarket> = new Map([
  [2002, { currency: 'SGD', utcOffsetMinutes: 480 }],
  [1106, { currency: 'THB', utcOffsetMinutes: 420 }],
  [1179, { currency: 'THB', utcOffsetMinutes: 420 }],
  [1261, { currency: 'THB', utcOffsetMinutes: 420 }],
  [1316, { currency: 'MYR', utcOffsetMinutes: 480 }],
  [1108, { currency: 'IDR', utcOffsetMinutes: 420 }],
  [1262, { currency: 'IDR', utcOffsetMinutes: 420 }],
  [1113, { currency: 'VND', utcOffsetMinutes: 420 }],
  [1317, { currency: 'VND', utcOffsetMinutes: 420 }],
  // Jakarta (WIB) and Ho Chi Minh City
  [1313, { currency: 'IDR', utcOffsetMinutes: 420 }],
  [1178, { currency: 'IDR', utcOffsetMinutes: 420 }],
  [1314, { currency: 'VND', utcOffsetMinutes: 420 }],
  // the Bangkok / Hanoi / Jakarta image page: all three at UTC+7; it sells nothing
  [1142, { currency: 'CNY', utcOffsetMinutes: 420 }],
]);

/** The market of an expo. */
export function marketOf(expoId: number): ExpoMarket {
  return MARKETS.get(expoId) ?? DEFAULT_MARKET;
}

/** Digits after the decimal point of a currency's minor unit, as Intl knows it (CNY 2, VND 0). */
export function minorDigits(currency: string): number {
  try {
    return numberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * A price in minor units, formatted for the page language and the expo's currency.
 * @example formatPrice(8000, 'CNY', 'zh') // '¥80.00'
 * @example formatPrice(2000, 'SGD', 'en') // 'SGD 20.00'
 */
export function formatPrice(minor: number, currency: string, lang: Lang): string {
  const digits = minorDigits(currency);
  const major = minor / 10 ** digits;
  try {
    return numberFormat(htmlLang(lang), { style: 'currency', currency }).format(major);
  } catch {
    return `${currency} ${major.toFixed(digits)}`;
  }
}
