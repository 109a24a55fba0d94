import { atom } from 'nanostores';
import type { ToastSpec } from '../lib/page/toast';
import { interpolate } from '../lib/util/interpolate';

/** The toast on screen, or null. One at a time; a new one replaces the old (spec §8). */
export const $toast = atom<(ToastSpec & { id: number; tone: 'error' | 'success' }) | null>(null);

let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Shows a toast for its duration; `null` (a silent failure, e.g. HTTP 403) shows nothing. */
export function showToast(spec: ToastSpec | null, tone: 'error' | 'success' = 'error'): void {
  if (!spec) return;
  const id = nextId++;
  $toast.set({ ...spec, id, tone });
  clearTimeout(timer);
  timer = setTimeout(() => {
    if ($toast.get()?.id === id) $toast.set(null);
  }, spec.durationMs);
}

/**
 * The words of a toast: its catalogue text (the page passed the texts, no i18n runtime in the
 * client), or the server's own message; a key the page did not pass falls back to the generic error.
 * @example toastText({ key: 'error.server', vars: { status: 'Bad Gateway' }, durationMs: 5000 }, { 'error.server': 'Server error {{status}}' }) // 'Server error Bad Gateway'
 */
export function toastText(toast: ToastSpec, strings: Readonly<Record<string, string>>): string {
  if (!toast.key) return toast.text ?? '';
  return interpolate(strings[toast.key] ?? strings['error.generic'] ?? 'error', toast.vars);
}
