import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { appleWalletKeys, applePassJson, passBarcodeMessage, passManifest, passSerial, pemDer } from '../../src/lib/wallet/apple-pass';
import { PASS_IMAGE_SIZES, markPng, passImages } from '../../src/lib/wallet/pass-images';
import { loadPassSigner, passSigner, signManifest } from '../../src/lib/wallet/pass-signature';
import { buildPkpass, passFiles } from '../../src/lib/wallet/pkpass';
import { qrImagePath } from '../../src/lib/core/routes';
import { qrPng } from '../../src/lib/util/qr-png';
import { makeWalletTestCerts, opensslVerify } from '../wallet-certs';

const certs = makeWalletTestCerts();
afterAll(() => rmSync(certs.dir, { recursive: true, force: true }));

const env = {
  APPLE_PASS_TYPE_ID: 'pass.test.expo',
  APPLE_TEAM_ID: 'ABCDE12345',
  APPLE_PASS_CERT: certs.passCertPem,
  APPLE_PASS_KEY: certs.passKeyPem,
  APPLE_WWDR_CERT: certs.caPem,
};
const pass = { euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, expoName: 'IEAE 2026', attendeeName: '张一', attendeeClass: 'Registered visitor' };
const labels = { title: 'Registration successful', event: 'Event', name: 'Name', class: 'Attendee type', code: 'Registration code' };
const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

describe('Apple Wallet secrets (issue 13)', () => {
  it('all five, each of its shape, or none', () => {
    const keys = appleWalletKeys(env);
    expect(keys).toMatchObject({ passTypeId: 'pass.test.expo', teamId: 'ABCDE12345' });
    expect(keys?.certPem).toContain('BEGIN CERTIFICATE');
    expect(appleWalletKeys({})).toBeNull();
    for (const name of Object.keys(env)) {
      const { [name as keyof typeof env]: _gone, ...rest } = env;
      expect(appleWalletKeys(rest), `without ${name}`).toBeNull();
      expect(appleWalletKeys({ ...env, [name]: '' }), `empty ${name}`).toBeNull();
    }
    expect(appleWalletKeys({ ...env, APPLE_PASS_TYPE_ID: 'com.example.pass' })).toBeNull();
    expect(appleWalletKeys({ ...env, APPLE_TEAM_ID: 'abc' })).toBeNull();
    expect(appleWalletKeys({ ...env, APPLE_PASS_KEY: certs.passCertPem }), 'a certificate where the key belongs').toBeNull();
  });

  it('reads PEMs with escaped newlines, as a JSON-pasted secret has them', async () => {
    const keys = appleWalletKeys({ ...env, APPLE_PASS_CERT: certs.passCertPem.replace(/\n/g, '\\n'), APPLE_PASS_KEY: certs.passKeyPem.replace(/\n/g, '\\n') });
    expect(keys).not.toBeNull();
    expect(pemDer(keys!.certPem, 'CERTIFICATE')).toEqual(pemDer(certs.passCertPem, 'CERTIFICATE'));
    await expect(loadPassSigner(keys!)).resolves.toBeTruthy();
  });

  it('pemDer: the DER of the labelled block, or null', () => {
    expect(pemDer('-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----', 'CERTIFICATE')).toEqual(new Uint8Array([1, 2, 3]));
    expect(pemDer('-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----', 'PRIVATE KEY')).toBeNull();
    expect(pemDer('-----BEGIN CERTIFICATE-----\n%%%\n-----END CERTIFICATE-----', 'CERTIFICATE')).toBeNull();
  });

  it('a key that is not the certificate\'s, or garbage, is refused with a reason', async () => {
    const keys = appleWalletKeys(env)!;
    await expect(loadPassSigner({ ...keys, keyPem: certs.googleKeyPem })).rejects.toThrow('APPLE_PASS_KEY is not the key of APPLE_PASS_CERT');
    await expect(loadPassSigner({ ...keys, certPem: '-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----' })).rejects.toThrow();
    await expect(loadPassSigner({ ...keys, keyPem: '-----BEGIN PRIVATE KEY-----\nAQID\n-----END PRIVATE KEY-----' })).rejects.toThrow();
    // the memo keeps no failure: a broken set fails each time, a good one loads
    const broken = { ...keys, keyPem: certs.googleKeyPem };
    await expect(passSigner(broken)).rejects.toThrow();
    await expect(passSigner(broken)).rejects.toThrow();
    await expect(passSigner(keys)).resolves.toBe(await passSigner(keys));
  });
});

describe('pass.json (issue 13)', () => {
  const keys = appleWalletKeys(env)!;
  const json = applePassJson(keys, pass, labels);

  it('has the fields Apple requires and the attendee, class and expo', () => {
    expect(json).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: 'pass.test.expo',
      teamIdentifier: 'ABCDE12345',
      serialNumber: '1308-IWHBZIMYEOZETLFI',
      organizationName: 'IEAE 2026',
      description: 'Registration successful · IEAE 2026',
    });
    const ticket = json['eventTicket'] as Record<string, { key: string; label: string; value: string }[]>;
    const all = Object.values(ticket).flat();
    expect(all).toContainEqual({ key: 'name', label: 'Name', value: '张一' });
    expect(all).toContainEqual({ key: 'class', label: 'Attendee type', value: 'Registered visitor' });
    expect(all).toContainEqual({ key: 'event', label: 'Event', value: 'IEAE 2026' });
    expect(all).toContainEqual({ key: 'code', label: 'Registration code', value: 'IWHBZIMYEOZETLFI' });
    for (const colour of ['foregroundColor', 'backgroundColor', 'labelColor']) expect(json[colour]).toMatch(/^rgb\(\d{1,3}, \d{1,3}, \d{1,3}\)$/);
  });

  it('the serial is stable per expo and code', () => {
    expect(passSerial(1308, 'A')).toBe(passSerial(1308, 'A'));
    expect(passSerial(1308, 'A')).not.toBe(passSerial(1309, 'A'));
    expect(applePassJson(keys, { ...pass, attendeeName: 'other' }, labels)['serialNumber']).toBe(json['serialNumber']);
  });

  it('its QR barcode holds what the credential page\'s QR image encodes', async () => {
    expect(json['barcodes']).toEqual([{ format: 'PKBarcodeFormatQR', message: 'IWHBZIMYEOZETLFI', messageEncoding: 'iso-8859-1', altText: 'IWHBZIMYEOZETLFI' }]);
    // the page's QR image is drawn from the credential path's code: decode it and compare
    const params = { urlId: 21308, euCode: pass.euCode, expoId: 1308, fId: 21308 };
    expect(qrImagePath(params)).toContain('/SVdIQlpJTVlFT1pFVExGSQ/');
    const png = PNG.sync.read(Buffer.from(await qrPng(params.euCode)));
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(passBarcodeMessage(pass));
    // drawing and decoding a full-size PNG takes seconds on a busy 2-core machine
  }, 30_000);

  it('falls back to the code and the product name when the upstream gave no name', () => {
    const bare = applePassJson(keys, { ...pass, expoName: '', attendeeName: '' }, labels);
    expect(bare['organizationName']).toBe('Expo Pass');
    const primary = (bare['eventTicket'] as { primaryFields: { value: string }[] }).primaryFields;
    expect(primary[0]?.value).toBe('IWHBZIMYEOZETLFI');
  });
});

describe('manifest, images and the signed zip (issue 13)', () => {
  const keys = appleWalletKeys(env)!;

  it('passManifest is the SHA-1 hex of each file', async () => {
    const files = { 'a.txt': new TextEncoder().encode('abc'), 'b.bin': new Uint8Array([0, 1, 2]) };
    expect(await passManifest(files)).toEqual({ 'a.txt': 'a9993e364706816aba3e25717850c26c9cd0d89d', 'b.bin': sha1(files['b.bin']) });
  });

  it('icon.png and logo.png at their sizes, real PNGs of the mark', async () => {
    const images = await passImages();
    expect(Object.keys(images).sort()).toEqual(Object.keys(PASS_IMAGE_SIZES).sort());
    for (const [name, side] of Object.entries(PASS_IMAGE_SIZES)) {
      const png = PNG.sync.read(Buffer.from(images[name]!));
      expect([png.width, png.height], name).toEqual([side, side]);
      const dark = Array.from({ length: side * side }, (_, i) => png.data[i * 4]! < 128).filter(Boolean).length;
      expect(dark / (side * side), `${name} is neither blank nor black`).toBeGreaterThan(0.2);
      expect(dark / (side * side)).toBeLessThan(0.7);
    }
    // the top-left cell of the mark's finder pattern is dark, the margin light
    const big = PNG.sync.read(Buffer.from(await markPng(170)));
    expect(big.data[(15 * 170 + 15) * 4]).toBe(0);
    expect(big.data[(5 * 170 + 5) * 4]).toBe(255);
  });

  it('the zip holds pass.json, the images, a manifest whose hashes match and a signature openssl accepts', async () => {
    const now = new Date('2026-11-24T10:00:00Z');
    const zip = await buildPkpass({ keys, signer: await passSigner(keys), pass, labels, now });
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual(['icon.png', 'icon@2x.png', 'icon@3x.png', 'logo.png', 'logo@2x.png', 'logo@3x.png', 'manifest.json', 'pass.json', 'signature']);
    const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(Object.keys(files).filter((n) => n !== 'manifest.json' && n !== 'signature').sort());
    for (const [name, hash] of Object.entries(manifest)) expect(sha1(files[name]!), name).toBe(hash);
    expect(JSON.parse(new TextDecoder().decode(files['pass.json']))).toEqual(applePassJson(keys, pass, labels));

    const verified = opensslVerify(certs.dir, files['signature']!, files['manifest.json']!);
    expect(verified.output).toContain('Verification successful');
    expect(verified.ok).toBe(true);
    // a manifest changed after signing is refused
    const tampered = new TextEncoder().encode(JSON.stringify({ ...manifest, 'pass.json': '0'.repeat(40) }));
    expect(opensslVerify(certs.dir, files['signature']!, tampered).ok).toBe(false);
  });

  it('the signature carries both certificates and the signing time', async () => {
    const now = new Date('2026-11-24T10:00:00Z');
    const der = await signManifest(await passSigner(keys), new TextEncoder().encode('{}'), now);
    const text = Buffer.from(der).toString('latin1');
    expect(text).toContain('Test WWDR (not Apple)');
    expect(text).toContain('Pass Type ID: pass.test.expo');
    expect(text).toContain('261124100000Z'); // UTCTime of `now`
  });

  it('passFiles: the same pass makes the same bytes (a stable manifest)', async () => {
    const a = await passFiles(keys, pass, labels);
    const b = await passFiles(keys, pass, labels);
    expect(await passManifest(a)).toEqual(await passManifest(b));
  });
});
