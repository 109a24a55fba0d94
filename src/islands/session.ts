/**
 * The lookup form's session-storage rules (spec §2.1, §3) and small pure helpers, kept apart
 * from React so they can be unit-tested (tests/unit/lookup-island.test.ts). Storage is passed
 * in: the form island (src/islands/LookupForm.tsx) hands over `window.sessionStorage` (no storage on the server).
 */
import type { ContactMode } from '../lib/core/variants';
import type { CheckType } from '../lib/lookup/validation';

/** The session-storage key of the chosen mode (spec §3). */
export const CHECK_TYPE_KEY = 'checkType';

/** The part of `Storage` the lookup form's script uses. */
export type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Check type of a mode: 1 phone, 2 e-mail (spec §2.1, §9). */
export const checkTypeOf = (mode: ContactMode): CheckType => (mode === 'phone' ? 1 : 2);

/** Mode of a check type. */
export const modeOf = (checkType: CheckType): ContactMode => (checkType === 1 ? 'phone' : 'email');

/**
 * `window.sessionStorage`, or null where it is missing or throws (storage disabled, some
 * in-app browsers' private modes): the form then simply works without remembering.
 */
export function browserSession(): SessionStore | null {
  try {
    const s = window.sessionStorage;
    return s ?? null;
  } catch {
    return null;
  }
}

/**
 * The stored mode when it is valid and offered on this page, else null (spec §2.1: "default 2
 * unless a stored choice exists"; a choice made on a variant with both modes must not switch an
 * e-mail-only variant to phone).
 * @example storedCheckType(storeHolding({ checkType: '1' }), ['phone', 'email']) // 1
 * @example storedCheckType(storeHolding({ checkType: '1' }), ['email']) // null
 */
export function storedCheckType(store: SessionStore | null, modes: readonly ContactMode[]): CheckType | null {
  const raw = read(store, CHECK_TYPE_KEY);
  const checkType = raw === '1' ? 1 : raw === '2' ? 2 : null;
  return checkType !== null && modes.includes(modeOf(checkType)) ? checkType : null;
}

/** Remembers the mode the visitor chose (spec §2.1: "changing the mode ... stores the mode"). */
export function storeCheckType(store: SessionStore | null, checkType: CheckType): void {
  write(store, { [CHECK_TYPE_KEY]: String(checkType) }, []);
}

/**
 * Applies the session entries a lookup reply asks for (spec §4: e.g. zero records store the
 * phone with `areatext` and remove `email`, or the reverse). Removals run first, so a key both
 * removed and set ends up set.
 */
export function write(
  store: SessionStore | null,
  set: Readonly<Record<string, string>>,
  remove: readonly string[],
): void {
  if (!store) return;
  try {
    for (const key of remove) store.removeItem(key);
    for (const [key, value] of Object.entries(set)) store.setItem(key, value);
  } catch {
    // Quota or a disabled storage: the server-side cookie still carries the verified contact (DESIGN.md).
  }
}

function read(store: SessionStore | null, key: string): string | null {
  try {
    return store ? store.getItem(key) : null;
  } catch {
    return null;
  }
}

/** True when a click should be left to the browser (new tab, download, middle button). */
export function isModifiedClick(e: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;
}
