/**
 * The form islands' work on the server-rendered form (FormScreen.astro, Field.astro): read its
 * values, fill them, keep them in session storage, show a field's message. Kept apart from
 * React so the rules stay small; names follow form-schema.ts inputNames.
 */
import type { SessionStore } from './session';

/** Hidden fields the page renders for itself: never stored or refilled. */
const OWN = new Set(['route', 'path', 'f', 'idem', 'e', 'update']);

/** The form's values as flat strings (every input name is unique, so nothing is lost). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new FormData(form).entries()) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The values worth keeping through a reload: typed ones, not the page's own, not the locked contact. */
export function keptValues(form: HTMLFormElement, locked: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(formValues(form)).filter(([k]) => !OWN.has(k) && !locked.includes(k)));
}

export function saveValues(store: SessionStore | null, key: string, values: Record<string, string>): void {
  try {
    store?.setItem(key, JSON.stringify(values));
  } catch {
    // Storage full or blocked: the form still works, it just does not remember.
  }
}

export function loadValues(store: SessionStore | null, key: string): Record<string, string> {
  try {
    const raw = store?.getItem(key);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/**
 * Fills inputs with values where the page left them empty (the server's values win: they are
 * newer). Checkbox and radio groups are filled only when nothing in the group is ticked.
 * Returns the names it filled.
 */
export function fillEmpty(
  form: HTMLFormElement,
  values: Record<string, string>,
  locked: readonly string[],
  force = false,
): string[] {
  const filled: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (OWN.has(name) || locked.includes(name)) continue;
    type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    const els = (Array.from(form.elements) as Control[]).filter((el) => el.name === name);
    for (const el of els) {
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
        const group = els.filter((x) => x instanceof HTMLInputElement && x.checked);
        if (!force && group.length > 0) break;
        if (el.value === value) {
          el.checked = true;
          filled.push(name);
        }
      } else if (force || el.value === '') {
        if ('readOnly' in el && el.readOnly) continue;
        el.value = value;
        el.dispatchEvent(new Event('input', { bubbles: true }));
        filled.push(name);
      }
    }
  }
  return filled;
}

/** Shows (or clears, with '') a field's message and marks the failing input. */
export function showFieldError(form: HTMLFormElement, field: string, name: string, message: string): void {
  const p = form.querySelector<HTMLElement>(`#err-${CSS.escape(field)}`);
  if (p) p.textContent = message;
  const wrap = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
  wrap?.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
  if (!message) return;
  const el = form.elements.namedItem(name);
  const target = el instanceof RadioNodeList ? (el[0] as HTMLElement | undefined) : (el as HTMLElement | null);
  target?.setAttribute('aria-invalid', 'true');
}

/** Focuses the input of a failing field (spec §5). */
export function focusInput(form: HTMLFormElement, name: string): void {
  const el = form.elements.namedItem(name);
  const target = el instanceof RadioNodeList ? (el[0] as HTMLElement | undefined) : (el as HTMLElement | null);
  target?.focus();
}

/** Shows each 'other' text box only while its 'other' choice is ticked. */
export function syncOtherBoxes(form: HTMLFormElement): void {
  form.querySelectorAll<HTMLElement>('[data-other-for]').forEach((box) => {
    const key = box.dataset['otherFor'] ?? '';
    const values = new FormData(form);
    const ticked = values.get(key) === '__other' || values.get(`${key}.__other`) === '__other';
    box.hidden = !ticked;
  });
}
