// The shell's one inline script, on every page.
//
// Spec §2.5: pinch zoom and ctrl-wheel zoom are blocked. Pinch zoom: `touch-action: pan-x
// pan-y` on <html> (global.css) in Chromium and Firefox, and the gesture/two-finger events
// cancelled here for Safari. Not through the viewport meta: `user-scalable=no` or
// `maximum-scale=1` there fails the accessibility scan (axe meta-viewport, WCAG 1.4.4).
import { chunkTimeoutMs, EAGER_ISLANDS } from '../lib/page/chunk-load';

const stop = (e: Event) => e.preventDefault();
document.addEventListener('wheel', (e) => e.ctrlKey && e.preventDefault(), { passive: false });
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && ['+', '-', '=', '0'].includes(e.key)) e.preventDefault();
});
document.addEventListener('gesturestart', stop, { passive: false });
document.addEventListener('touchmove', (e) => e.touches.length > 1 && e.preventDefault(), { passive: false });

// Spec §8, §9: an island's chunk that failed, or has not hydrated it after 120 s, shows the
// chunk-load message with its retry (src/lib/page/chunk-load.ts); never a dead button. The same
// for a script file failing to load (a resource error, seen in the capture phase), or the lookup
// form island (issue 31) not marked enhanced (`data-enhanced`, set once it has hydrated) in time.
const LOOKUP_PENDING = '[data-lookup]:not([data-enhanced])';
const failed = () => document.getElementById('chunk-fail')?.removeAttribute('hidden');
addEventListener('astro:hydration-error', failed);
addEventListener('error', (e) => e.target instanceof HTMLScriptElement && e.target.src.includes('/_astro/') && failed(), true);
setTimeout(() => document.querySelector(`${EAGER_ISLANDS},${LOOKUP_PENDING}`) && failed(), chunkTimeoutMs(self as { chunkLoadTimeoutMs?: unknown }));
