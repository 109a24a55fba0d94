/**
 * What a lookup leads to (spec §4 "Lookup flow", §2.2 variant rules); the routes it goes to
 * (spec §2.1 route shapes, §2.3 generic routes) are ./links.ts. Pure: the API and pages act on
 * the outcome.
 */
import { Code, readSecondFormRef, type Registration } from '../util/domain';
import type { Variant } from '../core/variants';
import { exposWith } from '../expo/expos';
import { GENERIC_SECOND_FORM } from '../core/named-forms';

// Where a lookup leads comes with its links (./links.ts), so a caller imports one module.
export * from './links';

/** The record fields these rules read; upstream records may lack any of them (docs/upstream.md "Records"). */
export type LookupRecord = {
  [K in 'euCode' | 'euClass' | 'createtime' | 'activityId' | 'uname' | 'ucompany' | 'ucardid' | 'ucompanyTitle']?:
    | Registration[K]
    | undefined;
};

/** The VIP/guest class: always listed for 1308 (spec §2.2, §6). */
const CLASS_VIP = 3;

/** `YYYY-MM-DD HH:mm:ss`, expo-local time (docs/upstream.md "Records"). */
const CREATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * A createtime as a comparable number (ms, read as UTC: only the order matters, and every
 * record of an expo is in the same local time), or null when missing or not a real moment
 * (`2024-02-30 10:00:00`, `25:00:00`).
 * @example createtimeValue('2024-03-01 09:30:00') // 1709285400000
 */
export function createtimeValue(createtime: string | null | undefined): number | null {
  const m = CREATETIME.exec(createtime?.trim() ?? '');
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const t = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(t);
  const same =
    back.getUTCFullYear() === y &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    back.getUTCHours() === h &&
    back.getUTCMinutes() === mi &&
    back.getUTCSeconds() === s;
  return same ? t : null;
}

/**
 * The index of the earliest-created record: the first of equal earliest ones (the upstream's
 * order breaks ties); records without a valid createtime count as latest, so with none valid
 * it is the first record. -1 for no records.
 */
function earliestIndex(records: readonly LookupRecord[]): number {
  let best = -1;
  let bestTime = Number.POSITIVE_INFINITY;
  records.forEach((r, i) => {
    const t = createtimeValue(r.createtime) ?? Number.POSITIVE_INFINITY;
    if (best === -1 || t < bestTime) {
      best = i;
      bestTime = t;
    }
  });
  return best;
}

/**
 * The records a variant lists (spec §2.2). For 1308 (`earliestPlusClass3`): only the
 * earliest-created record plus every class 3 record, each once, in the upstream's order.
 * Every other variant, and the generic screens, list them all. Filtering twice changes nothing.
 * @example
 * // a: class 0, 2024; b: class 0, 2023; c: class 3, 2025
 * filterRecords([a, b, c], variantByExpoId(1308)) // [b, c]
 */
export function filterRecords<R extends LookupRecord>(records: readonly R[], variant: Variant | null): R[] {
  if (!variant?.rules.earliestPlusClass3) return [...records];
  const earliest = earliestIndex(records);
  return records.filter((r, i) => i === earliest || r.euClass === CLASS_VIP);
}

/** Where a lookup leads (spec §4). */
export type Outcome<R extends LookupRecord = Registration> =
  /** no registration: the variant's form (spec §4 "Zero records") */
  | { kind: 'form' }
  /** one registration: its success page, replacing the history entry */
  | { kind: 'success'; record: R }
  /** several: the selection popup (the generic screens show it as /applyList, spec §2.3) */
  | { kind: 'select'; records: R[] }
  /** Jakarta: one registration without an activity: the supplement form (spec §2.2) */
  | { kind: 'supplement'; record: R; route: string }
  /** expos 785 and 1074: one registration missing company, name, card id or company title → `/repairForm` (spec §2.3) */
  | { kind: 'repair'; record: R }
  /** Jakarta, Bangkok: code 20003, a second form to complete (spec §2.2, §4) */
  | { kind: 'secondForm'; userId: number; urlsId: number; route: string }
  /** generic screens: the 'no data' dialog, `search.nodata` (spec §4, §8) */
  | { kind: 'nodata' }
  /** any other reply code: stop; the API shows the upstream's msg (spec §4 "continue only on code 200", §8) */
  | { kind: 'error'; code: number };

/** What decideOutcome reads. */
export interface LookupResult<R extends LookupRecord> {
  /** null for the generic screens */
  variant: Variant | null;
  /** the upstream reply code */
  code: number;
  /** the decrypted records (filtered or not: decideOutcome filters them itself) */
  records: readonly R[];
  /** the reply's `data` when the code is 20003: `{ userId, urlsId }` in clear (docs/upstream.md) */
  data?: unknown;
  /** the expo looked up in (for the expo-specific rules, e.g. the repair form) */
  expoId?: number;
}

interface Context<R extends LookupRecord> {
  variant: Variant | null;
  expoId: number | null;
  code: number;
  data: unknown;
  /** records returned, before dropping the unusable */
  returned: number;
  /** usable records, filtered for the variant */
  records: R[];
}

/** One rule of the lookup flow: its outcome, or null when it does not apply. */
interface OutcomeRule {
  /** where the rule comes from */
  readonly source: string;
  readonly decide: <R extends LookupRecord>(c: Context<R>) => Outcome<R> | null;
}

const hasActivity = (r: LookupRecord) => r.activityId != null && r.activityId !== 0;

/** Expos whose incomplete registrations are completed on `/repairForm` (spec §2.3). */
export const REPAIR_EXPO_IDS: ReadonlySet<number> = exposWith('repair');

/** A registration missing company, name, card id or company title (spec §2.3). */
export function needsRepair(r: LookupRecord): boolean {
  return [r.ucompany, r.uname, r.ucardid, r.ucompanyTitle].some((v) => typeof v !== 'string' || v.trim() === '');
}

/** The lookup flow as an ordered list of rules; the first that applies decides. */
export const OUTCOME_RULES: readonly OutcomeRule[] = [
  {
    source: '§2.2, §4: Jakarta and Bangkok answer 20003 with a second form to complete (the generic screens: /twoForm, §2.3)',
    decide: (c) => {
      // The generic screens' second form is the named `/twoForm` (spec §2.3).
      const route = c.variant ? c.variant.rules.secondFormOn20003 : GENERIC_SECOND_FORM;
      if (c.code !== Code.SECOND_FORM || !route) return null;
      const ref = readSecondFormRef(c.data);
      return ref ? { kind: 'secondForm', userId: ref.userId, urlsId: ref.urlsId, route } : null;
    },
  },
  {
    source: '§4: continue only on code 200',
    decide: (c) => (c.code === Code.OK ? null : { kind: 'error', code: c.code }),
  },
  {
    // A contact with registrations that cannot be shown (no euCode: no credential page) is not
    // sent to register again, which would only duplicate them.
    // Zero records go to the form on every screen ("zero matches → form" for the
    // generic form too); the dialog is for registrations that exist but cannot be shown.
    source: '§4, §8: the no-data dialog when records came back but none is usable',
    decide: (c) => (c.records.length === 0 && c.returned > 0 ? { kind: 'nodata' } : null),
  },
  {
    source: '§4: zero records go to the variant form',
    decide: (c) => (c.records.length === 0 ? { kind: 'form' } : null),
  },
  {
    source: '§2.2: Jakarta, one match without an activityId goes to the supplement',
    decide: (c) => {
      const route = c.variant?.rules.supplementWhenNoActivity;
      const [only] = c.records;
      return route && only && c.records.length === 1 && !hasActivity(only)
        ? { kind: 'supplement', record: only, route }
        : null;
    },
  },
  {
    source: '§2.3: expos 785 and 1074, one record missing company, name, card id or company title → the repair form',
    decide: (c) => {
      const [only] = c.records;
      return only && c.records.length === 1 && c.expoId !== null && REPAIR_EXPO_IDS.has(c.expoId) && needsRepair(only)
        ? { kind: 'repair', record: only }
        : null;
    },
  },
  {
    source: '§4: one record goes to its success page',
    decide: (c) => {
      const [only] = c.records;
      return only && c.records.length === 1 ? { kind: 'success', record: only } : null;
    },
  },
  {
    source: '§4: several open the selection popup',
    decide: (c) => ({ kind: 'select', records: c.records }),
  },
];

/** A record the pages can show: it has a registration code for the credential page. */
const usable = (r: LookupRecord) => typeof r.euCode === 'string' && r.euCode.trim() !== '';

/**
 * Decides where a lookup leads (spec §4, §2.2). Records without a registration code are
 * dropped first (they cannot link to a credential page), then the variant's filter applies
 * (1308's earliest plus class 3).
 * @example decideOutcome({ variant: jakarta, code: 20003, records: [], data: { userId: 7, urlsId: 9 } })
 * // { kind: 'secondForm', userId: 7, urlsId: 9, route: 'JakartaSecondForm' }
 */
export function decideOutcome<R extends LookupRecord>(result: LookupResult<R>): Outcome<R> {
  const context: Context<R> = {
    variant: result.variant,
    expoId: result.expoId ?? null,
    code: result.code,
    data: result.data,
    returned: result.records.length,
    records: filterRecords(result.records.filter(usable), result.variant),
  };
  for (const rule of OUTCOME_RULES) {
    const outcome = rule.decide(context);
    if (outcome) return outcome;
  }
  // The last rule always applies; this line satisfies the type checker.
  return { kind: 'select', records: context.records };
}

/**
 * What a bypass lookup may lead to (spec §2.2: site 10542's e-mail path needs no code, so it
 * proves no contact): only showing what was found. Every outcome that would register, update or fill a
 * form (no registration, supplement, repair, second form) reads as 'no data' instead.
 * @example bypassOutcome({ kind: 'form' }) // { kind: 'nodata' }
 */
export function bypassOutcome<R extends LookupRecord>(outcome: Outcome<R>): Outcome<R> {
  return outcome.kind === 'success' || outcome.kind === 'select' || outcome.kind === 'error' ? outcome : { kind: 'nodata' };
}

/**
 * The registration codes an outcome found, for the verified-contact cookie (hole 12:
 * a form pre-fills only from these). At most `max`, empty codes dropped.
 * @example foundCodes({ kind: 'repair', record: { euCode: 'A1', … } }) // ['A1']
 */
export function foundCodes(outcome: Outcome<LookupRecord>, max = 20): string[] {
  const records =
    outcome.kind === 'select'
      ? outcome.records
      : outcome.kind === 'success' || outcome.kind === 'supplement' || outcome.kind === 'repair'
        ? [outcome.record]
        : [];
  return records.flatMap((r) => (r.euCode ? [r.euCode] : [])).slice(0, max);
}
