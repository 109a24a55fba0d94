/**
 * How every reply is read (docs/upstream.md "Records"): fields may be missing or null, numbers may
 * arrive as decimal strings. These readers coerce and default instead of rejecting, so one odd
 * field never crashes a page. Every schema of the contract is built from them.
 */
import { z } from 'zod';

/**
 * A number or a decimal string as an integer (fractions cut); anything else null. At most 15
 * digits, so a string never becomes an imprecise number.
 */
export const looseInt = z.preprocess((v) => {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())) return Number(v.trim());
  return null;
}, z.number().int().nullable());

/** An integer that must be there. */
export const int = looseInt.pipe(z.number().int());

/** A string as sent, numbers stringified; anything else null. */
export const looseString = z.preprocess((v) => {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}, z.string().nullable());

/** A string (numbers stringified), trimmed and cut to `max`; anything else ''. */
export const looseText = (max = 200) =>
  z.preprocess((v) => {
    if (typeof v === 'string') return v.trim().slice(0, max);
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    return '';
  }, z.string());

/** A field that may be missing: missing reads as null. */
export const opt = <T extends z.ZodType>(s: T) => s.optional().transform((v) => (v === undefined ? null : v));

/** The words of a space-separated string literal, as a union. */
export type Words<S extends string> = S extends `${infer A} ${infer B}` ? A | Words<B> : S;

type IntField = ReturnType<typeof opt<typeof looseInt>>;
type TextField = ReturnType<typeof opt<typeof looseString>>;
/** The shape `looseFields` builds: `name:int` an integer field, any other name a string field. */
export type LooseShape<S extends string> = {
  [W in Words<S> as W extends `${infer N}:int` ? N : W]: W extends `${string}:int` ? IntField : TextField;
};

/**
 * A record's fields that may be missing, written as one line of names in the record's order:
 * `name:int` is read by looseInt, any other name by looseString.
 * @example z.object(looseFields('id:int euCode uname')) // { id: number | null; euCode: string | null; uname: string | null }
 */
export function looseFields<const S extends string>(spec: S): LooseShape<S> {
  const entries = spec.split(' ').map((w) => (w.endsWith(':int') ? [w.slice(0, -4), opt(looseInt)] : [w, opt(looseString)]));
  return Object.fromEntries(entries) as LooseShape<S>;
}

/** An array whose items that do not read are dropped (one odd row never fails the list); not an array: empty. */
export function looseList<T extends z.ZodType>(item: T, max = 500) {
  return z.unknown().transform((v): z.output<T>[] => {
    if (!Array.isArray(v)) return [];
    const out: z.output<T>[] = [];
    for (const x of v.slice(0, max)) {
      const r = item.safeParse(x);
      if (r.success) out.push(r.data);
    }
    return out;
  });
}

/** A decimal string of at most `digits` digits read as its number; anything else is left for the schema to refuse. */
const decimal = (digits: number) => (v: unknown) =>
  typeof v === 'string' && new RegExp(`^\\d{1,${digits}}$`).test(v.trim()) ? Number(v.trim()) : v;
/**
 * Strict ids and counts (the bus and site booking calls): a decimal string is read, anything else
 * that is not a fitting number fails the row, unlike the loose readers above.
 */
export const strictId = z.preprocess(decimal(12), z.number().int().positive().max(Number.MAX_SAFE_INTEGER));
export const strictCount = z.preprocess(decimal(9), z.number().int().min(0).max(1_000_000));
/** Text of at most `max` characters; missing or null reads as empty. */
export const boundedText = (max: number) => z.preprocess((v) => (v === null || v === undefined ? '' : v), z.string().max(max));
