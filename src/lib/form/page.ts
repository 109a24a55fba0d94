/**
 * Which registration form a route names (spec §2.1 form route, §2.2 per-event forms, §2.3
 * generic `/form`, `/proving`, `/repairForm`), and the links around it. Pure: the form screen
 * and the register API both resolve the page from the same path, so the API never trusts a
 * posted kind or expo.
 */
import { matchRoute, parsePathParams, routePath, type PathParams } from '../core/routes';
import type { Variant } from '../core/variants';
import { exposWith } from '../expo/expos';
import { namedForm } from '../core/named-forms';

/**
 * - form: a new registration (generic `/form`, a variant's form);
 * - proving: `/proving`, used when an activity is set: the contact is verified on the page first (spec §2.3, §2.4);
 * - supplement: Jakarta's one record without an activity, Bangkok's supply form: completes the existing registration (spec §2.2);
 * - secondForm: code 20003's second form, saved values loaded (spec §4);
 * - repair: expos 785 and 1074, a registration missing company, name, card id or company title (spec §2.3);
 * - correct, details, exhibitor: the named forms `/reForm`, `/userInfo`, `/subyexhi` (src/lib/core/named-forms.ts).
 */
export type FormKind = 'form' | 'proving' | 'supplement' | 'secondForm' | 'repair' | 'correct' | 'details' | 'exhibitor';

export interface FormPage {
  /** the route's first segment, as in the URL */
  route: string;
  kind: FormKind;
  variant: Variant | null;
  params: PathParams;
}

/** Expos whose registrations may be completed on `/repairForm` (spec §2.3, §9). */
export const REPAIR_EXPOS: ReadonlySet<number> = exposWith('repair');

/** The generic form routes (spec §2.3) and what they are. */
const GENERIC_KINDS: Readonly<Record<string, FormKind>> = { form: 'form', proving: 'proving', repairForm: 'repair' };

/** A variant's form routes: its form, then its extra forms by the rule that names them. */
function variantKind(variant: Variant, route: string): FormKind | null {
  if (route === variant.form) return 'form';
  if (route === variant.rules.secondFormOn20003) return 'secondForm';
  if (route === variant.rules.supplementWhenNoActivity) return 'supplement';
  // Bangkok's SupplyBangkokForm: supplies what an existing registration lacks.
  if (variant.extraForms.includes(route)) return 'supplement';
  return null;
}

/**
 * Resolves a form route; null (not found) when the path is not `{fId}/{eid}[/{ty}]`, when a
 * variant's route names another expo, or when `/repairForm` is asked for another expo.
 * @example resolveFormPage('AsiaForm', ['21312', 'MTMxMg', 'visitor'], asia)?.kind // 'form'
 */
export function resolveFormPage(route: string, rest: readonly string[], variant: Variant | null): FormPage | null {
  const params = parsePathParams(rest);
  if (!params) return null;
  const kind = variant ? variantKind(variant, route) : (GENERIC_KINDS[route] ?? namedForm(route)?.kind ?? null);
  if (!kind) return null;
  if (variant && variant.expoId !== null && variant.expoId !== params.expoId) return null;
  if (kind === 'repair' && !REPAIR_EXPOS.has(params.expoId)) return null;
  return { route, kind, variant, params };
}

/**
 * `/{route}/{fId}/{eid}/{ty}` built from the parsed values, never the raw segments: a segment
 * that decoded to a valid id may still carry a newline or a space that would break a Location
 * header (the fuzz found `%0A` in `eid` answering 500).
 */
function pagePath(route: string, params: PathParams): string {
  return routePath({ screen: 'form', route, params });
}

/** The page's own path (where a no-JS post comes back to). */
export function formPagePath(page: FormPage): string {
  return pagePath(page.route, page.params);
}

/** The lookup page of the same event and url: where a visitor verifies the contact. */
export function lookupPagePath(page: Pick<FormPage, 'variant' | 'params'>): string {
  return pagePath(page.variant?.search ?? 'search', page.params);
}

/**
 * Where a form sends a visitor whose verified contact is missing or expired: the
 * lookup, with `?next=` the form page (its `?e=` kept), so the new code leads back to the form
 * and what was typed. A second form (20003) is found again by the lookup itself: no `next`.
 * @example verifyAgainPath(page, '/AsiaForm/21312/MTMxMg/visitor') // '/AsiaSearch/21312/MTMxMg/visitor?next=%2FAsiaForm%2F21312%2FMTMxMg%2Fvisitor'
 */
export function verifyAgainPath(page: FormPage, back: string): string {
  const lookup = lookupPagePath(page);
  return page.kind === 'secondForm' ? lookup : `${lookup}?next=${encodeURIComponent(back)}`;
}

/**
 * Whether the lookup may send a verified visitor on to `next` as a registration form: a form
 * page of the same expo (not a second form, which needs the lookup's own 20003 answer), with at
 * most an `?e=` registration code. Anything else (another site, another expo) is ignored.
 */
export function isFormNext(next: string, expoId: number): boolean {
  const m = /^(\/[A-Za-z][A-Za-z0-9]{0,40}\/\d{1,12}\/[A-Za-z0-9_-]{1,32}(?:\/[A-Za-z0-9_-]{0,32})?)(?:\?e=[A-Za-z0-9_-]{1,64})?$/.exec(next);
  const match = m?.[1] ? matchRoute(m[1]) : null;
  if (match?.screen !== 'form') return false;
  const page = resolveFormPage(match.route, match.rest, match.variant);
  return page !== null && page.params.expoId === expoId && page.kind !== 'secondForm';
}

/** Kinds that complete an existing registration: the upstream is asked to update, not to add (spec §2.2, §2.3). */
export function updatesExisting(kind: FormKind): boolean {
  return kind === 'supplement' || kind === 'repair' || kind === 'correct';
}

/** Kinds whose post names the registration it changes (`euCode`, one of the contact's own codes). */
export function namesRegistration(kind: FormKind): boolean {
  return kind === 'repair' || kind === 'correct';
}

/** What the repair form asks (spec §2.3: company, name, card id, company title), all required. */
export const REPAIR_KEYS: readonly string[] = ['uname', 'ucompany', 'ucardid', 'ucompanyTitle'];

/** The fields a kind of form shows: the repair form only the repair keys (required), the others all. */
export function fieldsFor<F extends { key: string; required: boolean }>(kind: FormKind, fields: readonly F[]): F[] {
  if (kind !== 'repair') return [...fields];
  return fields.filter((f) => REPAIR_KEYS.includes(f.key)).map((f) => ({ ...f, required: true }));
}
