/**
 * Loose readers for the seat and health calls' replies (docs/upstream.md "Records": fields may be
 * missing or null, numbers may arrive as strings). The same rules as contract.ts's.
 */
import { z } from 'zod';

/** A number or numeric string as an integer; anything else null. */
export const looseInt = z.preprocess((v) => {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())) return Number(v.trim());
  return null;
}, z.number().int().nullable());

/** A string (numbers stringified), trimmed and cut to `max`; anything else ''. */
export const looseText = (max = 200) =>
  z.preprocess((v) => {
    if (typeof v === 'string') return v.trim().slice(0, max);
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    return '';
  }, z.string());

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
