/**
 * The lookup page's state, decided on the server from the URL, the flash of a no-JS post and
 * the variant (spec §2.1, §2.2): which modes, which one is shown, and whether it was chosen
 * explicitly (then the island does not replace it with a stored choice).
 */
import type { ContactMode, Variant } from '../core/variants';

export interface ModeState {
  modes: ContactMode[];
  tabs: boolean;
  checkType: 1 | 2;
  explicit: boolean;
}

const modeOf = (checkType: 1 | 2): ContactMode => (checkType === 1 ? 'phone' : 'email');
const checkTypeOf = (mode: ContactMode): 1 | 2 => (mode === 'phone' ? 1 : 2);

/**
 * The modes of a lookup page. Generic pages offer e-mail and phone unless the config's
 * queryMethod is 2 (e-mail lookup, spec §3).
 * @example lookupModes({ variant: null, queryMethod: 2, requested: null, flashed: null }).modes // ['email']
 */
export function lookupModes(input: {
  variant: Variant | null;
  queryMethod: number | null;
  /** `?mode=1|2` of a no-JS mode switch */
  requested: string | null;
  /** the checkType a failed no-JS post came back with */
  flashed: string | null;
}): ModeState {
  const modes: ContactMode[] = input.variant
    ? [...input.variant.modes.offered]
    : input.queryMethod === 2
      ? ['email']
      : ['email', 'phone'];
  const tabs = input.variant ? input.variant.modes.tabs : false;
  const fallback: 1 | 2 = input.variant ? input.variant.defaultCheckType : 2;
  for (const candidate of [input.requested, input.flashed]) {
    if (candidate === '1' || candidate === '2') {
      const ct = Number(candidate) as 1 | 2;
      if (modes.includes(modeOf(ct))) return { modes, tabs, checkType: ct, explicit: true };
    }
  }
  const checkType = modes.includes(modeOf(fallback)) ? fallback : checkTypeOf(modes[0] ?? 'email');
  return { modes, tabs, checkType, explicit: false };
}

/**
 * The bypass of spec §2.2: on the customer sites listed for it (10542 of expo 1308) the
 * e-mail path needs no code, and the edge supplies the bypass code (DESIGN.md). Only on the
 * variant's own expo: a hand-made post naming the variant with another expo gets no bypass.
 */
export function usesBypass(variant: Variant | null, expoId: number, urlId: number, checkType: 1 | 2, enabled: boolean): boolean {
  return enabled && checkType === 2 && variant !== null && variant.expoId === expoId && variant.rules.bypassUrlIds.includes(urlId);
}

/**
 * The cookie of a browser whose bypass lookup was refused because the e-mail's code-less lookups
 * were spent (docs/limits.md "The bypass"): on that expo its bypass site asks for a code sent to
 * the e-mail instead, so harvesters spending an e-mail's lookups never lock its owner out. Its
 * value is the expo id; it only ever makes the page stricter, so it needs no signature.
 */
export const BYPASS_PROVE_COOKIE = 'bpx';
export const BYPASS_PROVE_MAX_AGE_S = 3600;

/**
 * Whether the bypass runs for this browser on this expo: the deployment allows it and the
 * browser was not asked to prove the e-mail by a code ({@link BYPASS_PROVE_COOKIE}).
 * @example bypassFor(true, undefined, 1308) // true
 * @example bypassFor(true, '1308', 1308) // false
 */
export function bypassFor(enabled: boolean, proveCookie: string | null | undefined, expoId: number): boolean {
  return enabled && proveCookie !== String(expoId);
}

/**
 * The deployment's `EXHIBITOR_BYPASS`: `off` turns spec §2.2's code-less e-mail lookup off
 * (its sites then ask for a code like any other; README "Abuse limits" says which to choose);
 * unset or anything else keeps the spec's behaviour.
 * @example bypassEnabled('off') // false
 * @example bypassEnabled(undefined) // true
 */
export function bypassEnabled(raw: unknown): boolean {
  return String(raw ?? '').trim().toLowerCase() !== 'off';
}
