import { describe, expect, it } from 'vitest';
import CryptoJS from 'crypto-js';
import { AesError, decrypt, decryptJson, encrypt, encryptJson } from '../../src/lib/contract/aes';

const KEY = 'k8Hq2LmN4pRs6TvW';

/** What the legacy clients do (spec §7): crypto-js AES-CBC/PKCS7 with key = IV. */
function legacyEncrypt(plain: string, aesKey: string): string {
  const key = CryptoJS.enc.Utf8.parse(aesKey);
  return CryptoJS.AES.encrypt(CryptoJS.enc.Utf8.parse(plain), key, {
    iv: key,
    mode: CryptoJS.mode.CBC,
    padding: CryptoJS.pad.Pkcs7,
  }).toString();
}

function legacyDecrypt(cipher: string, aesKey: string): string {
  const key = CryptoJS.enc.Utf8.parse(aesKey);
  return CryptoJS.AES.decrypt(cipher, key, { iv: key, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 }).toString(
    CryptoJS.enc.Utf8,
  );
}

const inputs: string[] = [
  '',
  'a',
  '1308',
  '13812345678',
  '+66812345678',
  'visitor@example.com',
  '0123456789abcdef', // exactly one block
  '0123456789abcdef0123456789abcdef', // exactly two blocks
  'x'.repeat(15),
  'x'.repeat(17),
  '展会预登记',
  '中文测试1234', // 4 CJK × 3 bytes + 4 = 16 bytes: one block of UTF-8
  'ลงทะเบียนผู้เข้าชม',
  'Đăng ký khách tham quan',
  'Pendaftaran Pengunjung',
  '😀 emoji 🎫',
  '{"email":"a@b.co","phone":"","captcha":"123456"}',
  JSON.stringify([{ id: 1, uname: '王小明', euClass: 3, euDefine: 'VIP 贵宾' }]),
  ' leading and trailing ',
  'line\nbreak\ttab',
  'ß'.repeat(8), // 16 bytes of two-byte characters
  'long '.repeat(200),
];

describe('aes (spec §7 wire encryption)', () => {
  it('has at least 20 varied inputs', () => {
    expect(inputs.length).toBeGreaterThanOrEqual(20);
  });

  it.each(inputs.map((s) => [JSON.stringify(s).slice(0, 40), s]))('encrypts %s byte-identically to crypto-js', async (_label, plain) => {
    const ours = await encrypt(plain, KEY);
    expect(ours).toBe(legacyEncrypt(plain, KEY));
    expect(legacyDecrypt(ours, KEY)).toBe(plain);
    expect(await decrypt(legacyEncrypt(plain, KEY), KEY)).toBe(plain);
  });

  it('round-trips JSON', async () => {
    const value = { list: [1, 2, 3], name: 'ผู้เข้าชม' };
    expect(await decryptJson(await encryptJson(value, KEY), KEY)).toEqual(value);
  });

  it('rejects a key that is not 16 bytes', async () => {
    await expect(encrypt('x', 'short')).rejects.toBeInstanceOf(AesError);
  });

  it.each([
    ['not base64', '@@@@'],
    ['wrong length', btoa('12345')],
    ['empty', ''],
    ['wrong key', 'placeholder'],
  ])('rejects undecryptable input: %s', async (label, cipher) => {
    const text = label === 'wrong key' ? legacyEncrypt('hello world', 'AAAAAAAAAAAAAAAA') : cipher;
    await expect(decrypt(text, KEY)).rejects.toBeInstanceOf(AesError);
  });

  it('rejects decrypted text that is not JSON', async () => {
    await expect(decryptJson(await encrypt('not json', KEY), KEY)).rejects.toBeInstanceOf(AesError);
  });
});
