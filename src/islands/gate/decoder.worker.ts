/**
 * The decoder worker of the gate scanner (src/islands/gate/camera.ts starts it): one frame in,
 * its QR text (or null) out. Loaded only by the gate page's island, never by a visitor page.
 */
import { decodeFrame, type DecodeReply, type DecodeRequest } from './decode';

/** The worker's global, typed by what is used (the browser program has the DOM's lib, not the worker's). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<DecodeRequest>) => void) | null;
  postMessage(message: DecodeReply): void;
};

scope.onmessage = (event: MessageEvent<DecodeRequest>) => {
  const { id, width, height, pixels } = event.data;
  let text: string | null = null;
  try {
    text = decodeFrame(new Uint8ClampedArray(pixels), width, height);
  } catch {
    text = null;
  }
  const reply: DecodeReply = { id, text };
  scope.postMessage(reply);
};
