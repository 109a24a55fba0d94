/**
 * A Y4M video of a QR code, for Chromium's fake camera (`--use-file-for-fake-video-capture`): the
 * gate scanner's camera path runs in a headless browser that has no camera. Grey (4:2:0, chroma
 * flat), the code centred on white, drawn with the product's own encoder.
 */
import { writeFileSync } from 'node:fs';
import { qrMatrix } from '../../src/lib/util/qr-png';

export function writeQrY4m(path: string, text: string, width = 640, height = 480, frames = 4): void {
  const m = qrMatrix(text);
  const scale = Math.floor((Math.min(width, height) * 0.8) / m.size);
  const side = m.size * scale;
  const ox = Math.floor((width - side) / 2);
  const oy = Math.floor((height - side) / 2);
  const y = Buffer.alloc(width * height, 235);
  for (let py = 0; py < side; py++) {
    for (let px = 0; px < side; px++) {
      if (m.dark[Math.floor(py / scale)]?.[Math.floor(px / scale)]) y[(oy + py) * width + ox + px] = 16;
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma]);
  writeFileSync(path, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), ...Array<Buffer>(frames).fill(frame)]));
}
