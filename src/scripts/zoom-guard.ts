// Spec §2.5: pinch zoom and ctrl-wheel zoom are blocked. Pinch zoom: `touch-action: pan-x
// pan-y` on <html> (global.css) in Chromium and Firefox, and the gesture/two-finger events
// cancelled here for Safari. Not through the viewport meta: `user-scalable=no` or
// `maximum-scale=1` there fails the accessibility scan (axe meta-viewport, WCAG 1.4.4).
export {};
const stop = (e: Event) => e.preventDefault();
document.addEventListener('wheel', (e) => e.ctrlKey && e.preventDefault(), { passive: false });
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && ['+', '-', '=', '0'].includes(e.key)) e.preventDefault();
});
document.addEventListener('gesturestart', stop, { passive: false });
document.addEventListener('touchmove', (e) => e.touches.length > 1 && e.preventDefault(), { passive: false });
