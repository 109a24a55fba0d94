/**
 * The label of a registration row in the selection list (spec §2.1, §9): the class name, or the
 * ticket name for class 8, prefixed with the custom label `euDefine` when that is short.
 * Texts come from the catalogue: this module returns what `t` makes of translation keys.
 */
import { EU_CLASSES, type Registration } from '../util/domain';

/** The fields the label reads; upstream records may lack any of them (docs/upstream.md "Records"). */
export type LabelledRecord = {
  [K in 'euClass' | 'euDefine' | 'ticketName']?: Registration[K] | undefined;
};

/** Translates a catalogue key (`class.3`) into the page language. */
export type Translate = (key: string) => string;

/** A custom label is shown only when shorter than this many characters (spec §9). */
export const MAX_DEFINE_CHARS = 20;

/** The ticket-purchase class, labelled by its ticket name (spec §2.1, §3). */
const TICKET_CLASS = 8;

/**
 * The catalogue key of an attendee class (spec §3). A class the catalogue does not know
 * (missing, null, or outside 0, 2-9) falls back to `class.0`, "registered visitor": the
 * plainest role, and never a role the record does not have beyond that.
 * @example classKey(3) // 'class.3'
 * @example classKey(1) // 'class.0'
 */
export function classKey(euClass: number | null | undefined): string {
  const known = (EU_CLASSES as readonly number[]).includes(euClass ?? -1);
  return `class.${known ? euClass : 0}`;
}

/** Length in characters (Unicode code points), as a person counts them: '展会' is 2, '👍' is 1. */
export function charLength(s: string): number {
  return [...s].length;
}

/**
 * The selection-list label of a record (spec §2.1).
 * - class label: `t('class.N')`; for class 8 the record's `ticketName` (or `t('class.8')` when empty);
 * - `euDefine`, trimmed, when non-empty and shorter than 20 characters, is prefixed: `euDefine | label`.
 * @example registrationLabel({ euClass: 3, euDefine: 'Speaker' }, t) // 'Speaker | VIP'
 */
export function registrationLabel(record: LabelledRecord, t: Translate): string {
  const ticket = record.ticketName?.trim() ?? '';
  const label = record.euClass === TICKET_CLASS && ticket !== '' ? ticket : t(classKey(record.euClass));
  const define = record.euDefine?.trim() ?? '';
  return define !== '' && charLength(define) < MAX_DEFINE_CHARS ? `${define} | ${label}` : label;
}
