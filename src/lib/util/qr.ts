/**
 * QR codes for credentials, drawn on the server as one SVG path (DESIGN.md: "QR codes are
 * rendered on the server as inline SVG"). Encoding is uqr's; the drawing is ours so that the
 * SVG carries no inline style (the CSP allows none) and stays small: one path, dark modules
 * merged into horizontal runs.
 */
import { encode } from 'uqr';

export interface QrPath {
  /** modules per side, quiet zone included */
  size: number;
  /** SVG path data of the dark modules */
  d: string;
}

/**
 * The SVG path of a QR code for `text`, with a 4-module quiet zone (ISO/IEC 18004).
 * Error correction M: survives a smudged phone screen, stays small for short codes.
 * @example qrPath('AB12CD34').size // 29 (version 2 + border)
 */
export function qrPath(text: string): QrPath {
  const { data, size } = encode(text, { ecc: 'M', border: 4 });
  const runs: string[] = [];
  for (let y = 0; y < size; y++) {
    const row = data[y] ?? [];
    let x = 0;
    while (x < size) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && row[x]) x++;
      runs.push(`M${start} ${y}h${x - start}v1H${start}z`);
    }
  }
  return { size, d: runs.join('') };
}
