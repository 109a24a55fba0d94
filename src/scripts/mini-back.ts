// spec §2.5 "Browser back inside a mini-program goes back 2 steps" (src/lib/page/mini-program.ts):
// loaded only inside the messaging app (the layout decides by user agent); does anything only
// in a mini-program's web-view. Each entry keeps its position in history.state, the visit its
// last position in session storage; a back press shows an earlier entry, and then one more
// back press is made for it.
import { backStep, inMiniProgram, readBackState } from '../lib/page/mini-program';

const KEY = 'miniBack';

function onShow(): void {
  const env = (window as unknown as { __wxjs_environment?: unknown }).__wxjs_environment;
  if (!inMiniProgram(navigator.userAgent, env)) return;
  let stored = null;
  try {
    stored = readBackState(sessionStorage.getItem(KEY));
  } catch {
    return; // no session storage: the plain back
  }
  const state = (history.state ?? {}) as { miniBack?: unknown };
  const position = typeof state.miniBack === 'number' ? state.miniBack : null;
  const step = backStep(stored, position);
  if (position === null) history.replaceState({ ...state, miniBack: step.position }, '');
  sessionStorage.setItem(KEY, JSON.stringify(step.next));
  if (step.goBack) history.back();
}

// pageshow: a first load and a page shown again from the back/forward cache alike.
window.addEventListener('pageshow', onShow);
