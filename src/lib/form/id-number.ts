/**
 * Legality of a mainland China resident ID number (ID type 1, spec §3 and §5 "ID number not
 * legal"), as GB 11643-1999 defines it: 18 characters = 6-digit administrative region code,
 * 8-digit birth date (YYYYMMDD), 3-digit sequence, and a check character computed with
 * ISO 7064 MOD 11-2 over the first 17 digits (10 is written `X`).
 */

/** Weights of ISO 7064 MOD 11-2 for positions 1-17: 2^(17-i) mod 11 (GB 11643-1999 §8.1). */
export const ID_WEIGHTS: readonly number[] = Array.from({ length: 17 }, (_, i) => 2 ** (17 - i) % 11);

/** Check characters by remainder: index = (12 - sum mod 11) mod 11. */
const CHECK_CHARS = '0123456789X';

/**
 * Province-level codes (the region code's first two digits, GB/T 2260), plus 71 Taiwan and
 * 81/82/83 (Hong Kong, Macao and Taiwan residents' residence permits).
 */
const PROVINCES: ReadonlySet<string> = new Set([
  '11',
  '12',
  '13',
  '14',
  '15',
  '21',
  '22',
  '23',
  '31',
  '32',
  '33',
  '34',
  '35',
  '36',
  '37',
  '41',
  '42',
  '43',
  '44',
  '45',
  '46',
  '50',
  '51',
  '52',
  '53',
  '54',
  '61',
  '62',
  '63',
  '64',
  '65',
  '71',
  '81',
  '82',
  '83',
]);

/** Residence permits of Hong Kong, Macao and Taiwan residents: region code NN0000. */
const PERMITS: ReadonlySet<string> = new Set(['81', '82', '83']);

const SHAPE = /^\d{17}[\dX]$/;

/** The earliest birth year accepted: no living holder was born before 1900. */
const MIN_YEAR = 1900;

/**
 * The check character of the first 17 digits (ISO 7064 MOD 11-2).
 * @example idCheckChar('11010519491231002') // 'X'
 */
export function idCheckChar(first17: string): string {
  if (!/^\d{17}$/.test(first17)) throw new Error('idCheckChar needs exactly 17 digits');
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (ID_WEIGHTS[i] ?? 0);
  return CHECK_CHARS[(12 - (sum % 11)) % 11] ?? '';
}

/** Why a number is not legal; null when it is. */
export type IdProblem = 'shape' | 'region' | 'birthDate' | 'checkDigit';

/** Whether YYYYMMDD is a real date between 1900-01-01 and `today` (UTC). */
function validBirthDate(yyyymmdd: string, today: Date): boolean {
  const y = Number(yyyymmdd.slice(0, 4));
  const m = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  if (y < MIN_YEAR) return false;
  const t = Date.UTC(y, m - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return false;
  return t <= today.getTime();
}

/**
 * Checks an 18-character mainland ID number (trimmed; a lowercase `x` counts as `X`).
 * @example idNumberProblem('11010519491231002X') // null
 * @example idNumberProblem('110105194912310021') // 'checkDigit'
 */
export function idNumberProblem(raw: string, today: Date = new Date()): IdProblem | null {
  const id = raw.trim().toUpperCase();
  if (!SHAPE.test(id)) return 'shape';
  const province = id.slice(0, 2);
  // A province's own code (`110000`) is no place of registration; residence permits use 810000, 820000, 830000.
  if (!PROVINCES.has(province) || (id.slice(2, 6) === '0000' && !PERMITS.has(province))) return 'region';
  if (!validBirthDate(id.slice(6, 14), today)) return 'birthDate';
  return idCheckChar(id.slice(0, 17)) === id[17] ? null : 'checkDigit';
}

/** True when the number is a legal mainland ID number. */
export function isLegalIdNumber(raw: string, today: Date = new Date()): boolean {
  return idNumberProblem(raw, today) === null;
}

/**
 * ID document types of spec §3: 1 ID card, 2 passport, 3 officer certificate, 4 Taiwan resident
 * permit, 5 Hong Kong/Macao Mainland Travel Permit, 6 other: 6 only in the English list.
 */
export const ID_TYPES = [1, 2, 3, 4, 5, 6] as const;
export type IdType = (typeof ID_TYPES)[number];

/** The ID types a page offers: the Chinese lists (zh, tw) stop at 5; every other language is the English list (spec §3). */
export function idTypesFor(lang: string): IdType[] {
  return lang === 'zh' || lang === 'tw' ? [1, 2, 3, 4, 5] : [...ID_TYPES];
}
