/**
 * What staff hear and feel with an answer, so a glance is not needed: yes is one high short beep
 * and one short buzz; no (red or amber) is two low beeps and a long double buzz. Web Audio (no
 * sound file), `navigator.vibrate` where the phone has it (not iOS: the sound carries it there).
 */
import type { ScanTone } from '../../lib/gate/offline';

/** Tones per answer: frequency (Hz), beep length and gap (ms), beeps. */
const SOUND: Readonly<Record<'yes' | 'no', { hz: number; ms: number; gap: number; beeps: number }>> = {
  yes: { hz: 1760, ms: 110, gap: 0, beeps: 1 },
  no: { hz: 220, ms: 190, gap: 90, beeps: 2 },
};
/** Vibration patterns (ms on, off, on…). */
const BUZZ: Readonly<Record<'yes' | 'no', number[]>> = { yes: [60], no: [250, 100, 250] };

let audio: AudioContext | null = null;

/** Creates (or wakes) the audio context: call it in a user's gesture (the camera button, the form). */
export function unlockSound(): void {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    audio ??= new Ctx();
    if (audio.state === 'suspended') void audio.resume();
  } catch {
    audio = null;
  }
}

function beep(kind: 'yes' | 'no'): void {
  if (!audio) return;
  const s = SOUND[kind];
  const t0 = audio.currentTime + 0.01;
  for (let i = 0; i < s.beeps; i++) {
    const start = t0 + (i * (s.ms + s.gap)) / 1000;
    const end = start + s.ms / 1000;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = kind === 'yes' ? 'sine' : 'square';
    osc.frequency.value = s.hz;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.4, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, end);
    osc.connect(gain).connect(audio.destination);
    osc.start(start);
    osc.stop(end + 0.02);
  }
}

/** The sound and the vibration of an answer's tone (amber is a no: the person does not go in). */
export function signal(tone: ScanTone): void {
  const kind = tone === 'go' ? 'yes' : 'no';
  try {
    beep(kind);
  } catch {
    // no sound is no reason to lose the answer
  }
  try {
    navigator.vibrate?.(BUZZ[kind]);
  } catch {
    // iOS and some in-app browsers have no vibration
  }
}
