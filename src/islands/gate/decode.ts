/**
 * The QR decoder of a camera frame where the browser has no `BarcodeDetector` (iOS Safari, most
 * messaging apps' in-app browsers): jsQR, pure JavaScript, bundled into the decoder worker
 * (decoder.worker.ts) so it runs off the main thread, needs no WebAssembly (the page's CSP stays
 * as it is) and works offline once the gate page has loaded it. README "Dependencies and why".
 */
import jsQR from 'jsqr';

/**
 * The text of the QR code in an RGBA frame, or null when none is read. Both light-on-dark and
 * dark-on-light codes are tried (a phone screen in dark mode shows an inverted code).
 */
export function decodeFrame(data: Uint8ClampedArray, width: number, height: number): string | null {
  if (width <= 0 || height <= 0 || data.length < width * height * 4) return null;
  const found = jsQR(data, width, height, { inversionAttempts: 'attemptBoth' });
  return found && found.data !== '' ? found.data : null;
}

/** A frame sent to the worker, and its answer (`id` pairs them). */
export interface DecodeRequest {
  id: number;
  width: number;
  height: number;
  pixels: ArrayBuffer;
}
export interface DecodeReply {
  id: number;
  text: string | null;
}
