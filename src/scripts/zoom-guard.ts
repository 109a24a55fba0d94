// Spec §2.5: pinch zoom and ctrl-wheel zoom are blocked. The viewport meta stops pinch zoom
// where browsers honour it; iOS Safari ignores it, so gesture events are cancelled too.
export {};
const stop = (e: Event) => e.preventDefault();
document.addEventListener('wheel', (e) => e.ctrlKey && e.preventDefault(), { passive: false });
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && ['+', '-', '=', '0'].includes(e.key)) e.preventDefault();
});
document.addEventListener('gesturestart', stop, { passive: false });
document.addEventListener('touchmove', (e) => e.touches.length > 1 && e.preventDefault(), { passive: false });
