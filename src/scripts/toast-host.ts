/**
 * The error toast of spec §8 on a page without React (the registration form, issue 24: its
 * JavaScript under 70 KB gzip, where React DOM alone is about 66): the same markup and rules as
 * src/islands/ToastHost.tsx, drawn with the DOM. The region is the server's
 * (src/components/form/FormEnhance.astro); islands and scripts call showToast() as everywhere.
 */
import { toastTop } from '../lib/page/toast';
import { $toast, toastText } from '../stores/toast';

/** Draws every toast of the store into `region` until the returned function is called. */
export function mountToast(region: HTMLElement, strings: Readonly<Record<string, string>>): () => void {
  return $toast.subscribe((toast) => {
    if (!toast) {
      region.replaceChildren();
      region.style.removeProperty('top');
      return;
    }
    // Below the header, never over the language menu; measured when a toast appears (its height
    // depends on the width and the language). Through the CSSOM: the CSP allows no style attribute.
    const header = document.querySelector('.shell-top');
    region.style.top = `${toastTop(header ? header.getBoundingClientRect().bottom : null)}px`;
    const box = document.createElement('div');
    box.className = `toast toast-${toast.tone}`;
    box.textContent = toastText(toast, strings);
    region.replaceChildren(box);
  });
}
