/**
 * Byte helpers the PNG writer (qr-png.ts) and the upload reader (image-clean.ts) share. Nothing
 * is built at import time: image-clean.ts reaches the islands' shared chunk through health.ts,
 * and a table made at module level would ship (and run) in every page that loads an island.
 */

let crcTable: Uint32Array | undefined;

/**
 * CRC-32 (ISO 3309, as PNG chunks use); `crc` continues an earlier value.
 * @example crc32(new TextEncoder().encode('IEND')) // 0xae426082
 */
export function crc32(bytes: Uint8Array, crc = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = ~crc >>> 0;
  for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * One decoder for every call (issue 24: making one per call was a visible share of a page's CPU,
 * every id in a path is decoded): without `stream` each `decode` starts afresh, a failed one too.
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The bytes as UTF-8 text, or null when they are not UTF-8 (never a replacement character).
 * `ignoreBOM: false` is the default, spelled out because the Workers types require it.
 * @example utf8OrNull(new Uint8Array([0xff])) // null
 */
export function utf8OrNull(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** The parts one after the other, in one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
