/**
 * AES-128-CBC with PKCS#7 padding and base64 text, key = IV = the UTF-8 bytes of the
 * expo's 16-character `aesKey` (spec §7, docs/upstream.md "Wire rules").
 *
 * Web Crypto only, so it runs unchanged in workerd and Node; byte-identical with the
 * legacy clients' crypto-js output (tests/unit/aes.test.ts uses crypto-js as the oracle).
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Thrown when a key is not 16 bytes or a ciphertext cannot be decrypted. */
export class AesError extends Error {
  override name = 'AesError';
}

async function importKey(aesKey: string): Promise<{ key: CryptoKey; iv: Uint8Array<ArrayBuffer> }> {
  const raw = encoder.encode(aesKey);
  if (raw.byteLength !== 16) {
    throw new AesError(`aesKey must be 16 bytes of UTF-8, got ${raw.byteLength}`);
  }
  const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']);
  return { key, iv: raw as Uint8Array<ArrayBuffer> };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) {
    throw new AesError('ciphertext is not base64');
  }
  const binary = atob(clean);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * Encrypts UTF-8 text; returns base64.
 * @example await encrypt('13812345678', 'abcdefgh12345678') // 'k1…=='
 */
export async function encrypt(plain: string, aesKey: string): Promise<string> {
  const { key, iv } = await importKey(aesKey);
  const cipher = await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, key, encoder.encode(plain));
  return toBase64(new Uint8Array(cipher));
}

/** Decrypts base64 ciphertext to UTF-8 text; throws AesError on anything undecryptable. */
export async function decrypt(cipherText: string, aesKey: string): Promise<string> {
  const { key, iv } = await importKey(aesKey);
  const bytes = fromBase64(cipherText);
  if (bytes.byteLength === 0 || bytes.byteLength % 16 !== 0) {
    throw new AesError('ciphertext length is not a multiple of the block size');
  }
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: 'AES-CBC', iv }, key, bytes);
  } catch {
    throw new AesError('ciphertext does not decrypt with this key (bad padding)');
  }
  try {
    return decoder.decode(plain);
  } catch {
    throw new AesError('decrypted bytes are not UTF-8');
  }
}

/** Encrypts a value as JSON text ("encrypted data", docs/upstream.md). */
export async function encryptJson(value: unknown, aesKey: string): Promise<string> {
  return encrypt(JSON.stringify(value), aesKey);
}

/** Decrypts "encrypted data" and parses the JSON inside; throws AesError when it is not JSON. */
export async function decryptJson(cipherText: string, aesKey: string): Promise<unknown> {
  const text = await decrypt(cipherText, aesKey);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AesError('decrypted text is not JSON');
  }
}
