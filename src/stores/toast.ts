import { atom } from 'nanostores';
import type { ToastSpec } from '../lib/page/toast';

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
