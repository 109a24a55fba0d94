/**
 * The images of an Apple Wallet pass: Apple requires `icon.png` (29 × 29 pt, shown
 * on the lock screen and in notifications) and shows `logo.png` (at most 160 × 50 pt) at the
 * top of the pass. Both are the product's mark, a small QR-like glyph, drawn here at the edge
 * with the 1-bit PNG writer of src/lib/util/qr-png.ts: nothing to fetch, nothing to ship besides this
 * table. The organiser's own logo (`expoInfo.showLogo`) is not used: it lives on a foreign host
 * the Worker would have to fetch while the visitor waits, and is often a JPEG, which a pass
 * cannot carry (README "The credential at the entrance").
 */
import { monoPng } from '../util/qr-png';

/** The mark, one character per cell (`#` dark), with a one-cell light margin. */
export const PASS_MARK: readonly string[] = [
  '.................',
  '.#####.#...#####.',
  '.#...#..##.#...#.',
  '.#.#.#.##..#.#.#.',
  '.#...#.#.#.#...#.',
  '.#####.##..#####.',
  '........##.......',
  '.#.......#.#..##.',
  '.###......#.###..',
  '.##.########..#..',
  '........##...##..',
  '.#####...#.#.#...',
  '.#...#..#...#.##.',
  '.#.#.#.#.###...#.',
  '.#...#.####.###..',
  '.#####.###.###...',
  '.................',
];

/** File name → side in pixels: 1×, 2× and 3× of Apple's 29 pt icon and of a 50 pt square logo. */
export const PASS_IMAGE_SIZES: Readonly<Record<string, number>> = {
  'icon.png': 29,
  'icon@2x.png': 58,
  'icon@3x.png': 87,
  'logo.png': 50,
  'logo@2x.png': 100,
  'logo@3x.png': 150,
};

/** The mark as a square PNG of `side` pixels (nearest-neighbour cells). */
export function markPng(side: number): Promise<Uint8Array> {
  const n = PASS_MARK.length;
  return monoPng(side, side, (x, y) => PASS_MARK[Math.floor((y * n) / side)]?.[Math.floor((x * n) / side)] === '#');
}

let images: Promise<Record<string, Uint8Array>> | null = null;

/**
 * Every image file of the pass, by name. The bytes depend on nothing else, so they are drawn
 * once per isolate.
 */
export function passImages(): Promise<Record<string, Uint8Array>> {
  images ??= Promise.all(Object.entries(PASS_IMAGE_SIZES).map(async ([name, side]) => [name, await markPng(side)] as const)).then(
    (entries) => Object.fromEntries(entries),
    (e: unknown) => {
      images = null; // draw again next time rather than keep a failure
      throw e;
    },
  );
  return images;
}
