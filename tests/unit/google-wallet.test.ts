import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, createVerify } from 'node:crypto';
import { googleWalletClaims, googleWalletKeys, googleWalletSaveUrl } from '../../src/lib/wallet/google-wallet';

describe('Save to Google Wallet (issue 13)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const keys = { issuerId: '3388000000012345678', serviceAccountEmail: 'wallet@demo.iam.gserviceaccount.com', privateKeyPem: pem };
  const pass = { euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, expoName: 'IEAE', attendeeName: '张一', attendeeClass: 'Registered visitor', lang: 'en' as const };

  it('signs a save link whose JWT verifies with the public key (RS256) and holds the euCode', async () => {
    const url = await googleWalletSaveUrl(keys, pass, 'https://expo.example', 1_800_000_000);
    expect(url.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
    const jwt = url.slice('https://pay.google.com/gp/v/save/'.length);
    const [h = '', p = '', s = ''] = jwt.split('.');
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT' });
    const verifier = createVerify('RSA-SHA256');
    verifier.update(`${h}.${p}`);
    expect(verifier.verify(publicKey, Buffer.from(s, 'base64url'))).toBe(true);
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; typ: string; iss: string; origins: string[]; payload: { genericObjects: { id: string; classId: string; barcode: { value: string } }[] } };
    expect(claims).toMatchObject({ aud: 'google', typ: 'savetowallet', iss: keys.serviceAccountEmail, origins: ['https://expo.example'] });
    const object = claims.payload.genericObjects[0];
    expect(object?.barcode.value).toBe(pass.euCode);
    expect(object?.id).toBe('3388000000012345678.1308_IWHBZIMYEOZETLFI');
    expect(object?.classId).toBe('3388000000012345678.expo_1308');
    // a tampered payload no longer verifies
    const bad = createVerify('RSA-SHA256');
    bad.update(`${h}.${p.slice(0, -2)}AA`);
    expect(bad.verify(publicKey, Buffer.from(s, 'base64url'))).toBe(false);
  });

  it('reads the key with escaped newlines, as in service-account JSON', async () => {
    const url = await googleWalletSaveUrl({ ...keys, privateKeyPem: pem.replace(/\n/g, '\\n') }, pass, 'https://expo.example');
    expect(url).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('no button without all three secrets', () => {
    expect(googleWalletKeys({})).toBeNull();
    expect(googleWalletKeys({ GOOGLE_WALLET_ISSUER_ID: '1', GOOGLE_WALLET_SA_EMAIL: 'a@b' })).toBeNull();
    expect(googleWalletKeys({ GOOGLE_WALLET_ISSUER_ID: 'x', GOOGLE_WALLET_SA_EMAIL: 'a@b', GOOGLE_WALLET_SA_KEY: pem })).toBeNull();
    expect(googleWalletKeys({ GOOGLE_WALLET_ISSUER_ID: '1', GOOGLE_WALLET_SA_EMAIL: 'a@b', GOOGLE_WALLET_SA_KEY: pem })).toEqual({ issuerId: '1', serviceAccountEmail: 'a@b', privateKeyPem: pem });
  });

  it('tags every text with the language the visitor asked the pass in', () => {
    type Text = { defaultValue: { language: string; value: string } };
    type Obj = { cardTitle: Text; header: Text; subheader: Text };
    const texts = (lang: typeof pass.lang | 'thai' | 'zh' | 'tw' | 'vn') => {
      const claims = googleWalletClaims(keys, { ...pass, lang, attendeeClass: 'ผู้เข้าชมที่ลงทะเบียน' }, 'https://expo.example', 1) as { payload: { genericObjects: Obj[] } };
      const o = claims.payload.genericObjects[0] as Obj;
      return [o.cardTitle, o.header, o.subheader].map((x) => x.defaultValue);
    };
    for (const [lang, tag] of [['thai', 'th'], ['zh', 'zh-CN'], ['tw', 'zh-TW'], ['vn', 'vi'], ['en', 'en']] as const) {
      expect(texts(lang).map((x) => x.language), lang).toEqual([tag, tag, tag]);
    }
    expect(texts('thai')[2]?.value).toBe('ผู้เข้าชมที่ลงทะเบียน');
  });
});
