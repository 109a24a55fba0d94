/**
 * The organiser's API as docs/upstream.md describes it, one file per area: its paths (relative to
 * the area's base, wire.ts `Base`), codes and the schemas every reply is read through (loose.ts:
 * replies from real organisers are loose). The upstream client reads through them; the reference
 * upstream (functions/reference) serves the same paths and writes replies that satisfy them.
 */
import { FormCode, FormPath } from './forms';
import { LookupCode, LookupPath } from './lookup';
import { HaisiPath } from './haisi';
import { WireCode } from './wire';
import type { LookupCalls } from './lookup';
import type { FormCalls } from './forms';
import type { SeatCalls } from './seats';
import type { HealthCalls } from './health';
import type { TicketCalls } from './tickets';
import type { SiteCalls } from './sites';
import type { PagesCalls } from './pages';
import type { BusCalls } from './bus';
import type { ShareCalls } from './wx';
import type { CheckinCalls } from './checkin';

export * from './wire';
export * from './loose';
export * from './lookup';
export * from './forms';
export * from './tickets';
export * from './seats';
export * from './health';
export * from './sites';
export * from './bus';
export * from './wx';
export * from './pages';
export * from './haisi';
export * from './checkin';
export * from './result';

/** The lookup and form calls together: every path of the original contract's first table, plus camera5 and the haisi family's calls. */
export const Path = { ...LookupPath, ...FormPath, ...HaisiPath } as const;

/** The codes of the lookup and the form, with the shared ones. */
export const Code = { ...WireCode, ...LookupCode, ...FormCode } as const;

/** Attendee classes (docs/upstream.md "Records": `euClass`). */
export const EU_CLASSES = [0, 2, 3, 4, 5, 6, 7, 8, 9] as const;
export type EuClass = (typeof EU_CLASSES)[number];

/**
 * The upstream's calls, one method each (docs/upstream.md "Calls"), declared once: the client
 * (functions/upstream) implements it, and every port in src/lib is a `Pick<Upstream, …>` of it,
 * so a new call's signature is written here and nowhere else.
 */
export type Upstream = LookupCalls & FormCalls & SeatCalls & HealthCalls & TicketCalls & SiteCalls & PagesCalls & BusCalls & ShareCalls & CheckinCalls;
