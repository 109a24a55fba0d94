/**
 * The gate's camera: the back camera in a `<video>`, and a reader that finds a QR code in its
 * frames. The browser's own `BarcodeDetector` (format `qr_code`) where it exists and knows QR
 * codes (Chrome on Android, Safari on macOS); else jsQR in a Web Worker (decoder.worker.ts), fed
 * downscaled frames from a canvas, one frame at a time.
 */
import type { DecodeReply, DecodeRequest } from './decode';

/** Reads the QR text of the video's current frame (null: none seen). */
export interface FrameReader {
  kind: 'native' | 'worker';
  read(video: HTMLVideoElement): Promise<string | null>;
  close(): void;
}

/** The longest side a frame is scaled to before the worker decodes it (speed against small codes). */
const WORKER_FRAME_MAX = 720;

interface NativeDetector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface NativeDetectorClass {
  new (options: { formats: string[] }): NativeDetector;
  getSupportedFormats?(): Promise<string[]>;
}

async function nativeReader(): Promise<FrameReader | null> {
  const Detector = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    const formats = (await Detector.getSupportedFormats?.()) ?? ['qr_code'];
    if (!formats.includes('qr_code')) return null;
    const detector = new Detector({ formats: ['qr_code'] });
    return {
      kind: 'native',
      async read(video) {
        const found = await detector.detect(video);
        return found.find((c) => c.rawValue !== '')?.rawValue ?? null;
      },
      close() {},
    };
  } catch {
    return null;
  }
}

function workerReader(): FrameReader | null {
  let worker: Worker;
  try {
    worker = new Worker(new URL('./decoder.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) {
    worker.terminate();
    return null;
  }
  let next = 1;
  const waiting = new Map<number, (text: string | null) => void>();
  worker.onmessage = (e: MessageEvent<DecodeReply>) => {
    waiting.get(e.data.id)?.(e.data.text);
    waiting.delete(e.data.id);
  };
  worker.onerror = () => {
    for (const done of waiting.values()) done(null);
    waiting.clear();
  };
  return {
    kind: 'worker',
    read(video) {
      const w = video.videoWidth;
      const h = video.videoHeight;
      if (!w || !h) return Promise.resolve(null);
      const scale = Math.min(1, WORKER_FRAME_MAX / Math.max(w, h));
      canvas.width = Math.round(w * scale);
      canvas.height = Math.round(h * scale);
      ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
      const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const id = next++;
      const request: DecodeRequest = { id, width: image.width, height: image.height, pixels: image.data.buffer };
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        worker.postMessage(request, [image.data.buffer]);
      });
    },
    close() {
      worker.terminate();
      for (const done of waiting.values()) done(null);
      waiting.clear();
    },
  };
}

/** The best reader this browser has: native first, else the worker; null when neither works. */
export async function frameReader(): Promise<FrameReader | null> {
  return (await nativeReader()) ?? workerReader();
}

/** Why the camera did not start. */
export type CameraFault = 'denied' | 'none';

/**
 * Starts the back camera (`facingMode: environment`, any camera when there is no back one) in
 * `video`. Call it from a button press: the browser's permission prompt needs a user's gesture.
 */
export async function startCamera(video: HTMLVideoElement): Promise<MediaStream | CameraFault> {
  if (!navigator.mediaDevices?.getUserMedia) return 'none';
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
    });
  } catch (e) {
    const name = (e as { name?: string }).name;
    return name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'none';
  }
  video.srcObject = stream;
  video.setAttribute('playsinline', '');
  video.muted = true;
  try {
    await video.play();
  } catch {
    // autoplay of a muted inline video is allowed after the press; a refusal leaves the first frame
  }
  return stream;
}

export function stopCamera(stream: MediaStream | null, video: HTMLVideoElement | null): void {
  stream?.getTracks().forEach((t) => t.stop());
  if (video) video.srcObject = null;
}
