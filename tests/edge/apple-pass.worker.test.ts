/**
 * The Apple Wallet pass in workerd (issue 13): GET /pass/{credential segments}.pkpass against
 * the seeded reference upstream. Without the five APPLE_* secrets it is a 404; with test
 * secrets made here by PKIjs over workerd's Web Crypto (a test CA standing in for Apple's WWDR
 * intermediate, a pass certificate it signed), the zip holds pass.json, the images, a manifest
 * whose SHA-1s match, and a signature that verifies against the test CA. Paths that are not a
 * credential's are refused before any upstream call; an unknown code, another expo's code, a
 * broken key, posts and a query string get no pass; 40 requests at once all get the same pass.
 */
import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { passPath, routePath } from '../../src/lib/core/routes';
import { signContact } from '../../src/lib/lookup/contact-cookie';
import { variantByExpoId } from '../../src/lib/core/variants';
import { FAKE_BASE, installFakeUpstream } from './fake-upstream';

const app = createApp();
const testEnv = env as unknown as AppEnv;
const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };

const pem = (label: string, der: ArrayBuffer) => {
  let bin = '';
  for (const b of new Uint8Array(der)) bin += String.fromCharCode(b);
  return `-----BEGIN ${label}-----\n${btoa(bin).replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`;
};
const name = (cn: string) => new pkijs.RelativeDistinguishedNames({ typesAndValues: [new pkijs.AttributeTypeAndValue({ type: '2.5.4.3', value: new asn1js.Utf8String({ value: cn }) })] });

/** A certificate for `publicKey` named `cn`, issued by `issuerCn` with `issuerKey`. */
async function certificate(cn: string, publicKey: CryptoKey, issuerCn: string, issuerKey: CryptoKey, serial: number, ca: boolean): Promise<pkijs.Certificate> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ value: serial });
  cert.subject = name(cn);
  cert.issuer = name(issuerCn);
  cert.notBefore.value = new Date(Date.now() - 3_600_000);
  cert.notAfter.value = new Date(Date.now() + 86_400_000);
  cert.extensions = [
    new pkijs.Extension({ extnID: '2.5.29.19', critical: true, extnValue: new pkijs.BasicConstraints({ cA: ca }).toSchema().toBER(false), parsedValue: new pkijs.BasicConstraints({ cA: ca }) }),
  ];
  await cert.subjectPublicKeyInfo.importKey(publicKey);
  await cert.sign(issuerKey, 'SHA-256');
  return cert;
}

interface TestSecrets {
  ca: pkijs.Certificate;
  vars: Record<string, string>;
}

async function makeSecrets(): Promise<TestSecrets> {
  const caKeys = (await crypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const passKeys = (await crypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const ca = await certificate('Test WWDR (not Apple)', caKeys.publicKey, 'Test WWDR (not Apple)', caKeys.privateKey, 1, true);
  const pass = await certificate('Pass Type ID: pass.test.expo', passKeys.publicKey, 'Test WWDR (not Apple)', caKeys.privateKey, 2, false);
  return {
    ca,
    vars: {
      APPLE_PASS_TYPE_ID: 'pass.test.expo',
      APPLE_TEAM_ID: 'ABCDE12345',
      APPLE_PASS_CERT: pem('CERTIFICATE', pass.toSchema().toBER(false)),
      APPLE_PASS_KEY: pem('PRIVATE KEY', (await crypto.subtle.exportKey('pkcs8', passKeys.privateKey)) as ArrayBuffer),
      APPLE_WWDR_CERT: pem('CERTIFICATE', ca.toSchema().toBER(false)),
    },
  };
}

// Seed: expo 1308, url 21308, 张一 (functions/reference/SEED.md).
const params = { urlId: 21308, euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, fId: 21308 };
const PATH = passPath(params);

/** The `vc` cookie of the contact whose lookup found `codes` on expo 1308 (issue 19 item 3: only the owner gets the pass). */
const ownerCookie = async (codes: string[], now = Date.now()) =>
  `vc=${await signContact({ expoId: 1308, contact: 'one@demo.test', checkType: 2, codes }, testEnv.SESSION_SECRET ?? '', now)}`;

let secrets: TestSecrets;
let owner: string;
beforeAll(async () => {
  secrets = await makeSecrets();
  owner = await ownerCookie([params.euCode, 'NOSUCHCODE000000']);
});

const withSecrets = (extra: Record<string, string> = {}) => ({ ...testEnv, ...secrets.vars, ...extra }) as AppEnv;
/** A request of the owner (its `vc` cookie), unless `cookie` says otherwise (null: none). */
const get = (path: string, e: AppEnv, init: RequestInit = {}, cookie: string | null = owner) =>
  app.request(`https://expo.example${path}`, { ...init, headers: { ...(cookie ? { cookie } : {}), ...((init.headers as Record<string, string> | undefined) ?? {}) } }, e);

const hex = (b: ArrayBuffer) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');

describe('GET /pass/….pkpass (issue 13: Add to Apple Wallet)', () => {
  it('is a 404 while the APPLE_* secrets are not all set', async () => {
    expect((await get(PATH, testEnv)).status).toBe(404);
    const { APPLE_WWDR_CERT: _gone, ...four } = secrets.vars;
    expect((await get(PATH, { ...testEnv, ...four } as AppEnv)).status).toBe(404);
  });

  it('answers a signed pass: the files, matching manifest hashes, a signature that verifies', async () => {
    const res = await get(PATH, withSecrets());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="IWHBZIMYEOZETLFI.pkpass"');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    for (const f of ['pass.json', 'manifest.json', 'signature', 'icon.png', 'logo.png']) expect(Object.keys(files)).toContain(f);

    const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(Object.keys(files).filter((f) => f !== 'manifest.json' && f !== 'signature').sort());
    for (const [file, sha1] of Object.entries(manifest)) expect(hex(await crypto.subtle.digest('SHA-1', files[file]!)), file).toBe(sha1);

    const pass = JSON.parse(new TextDecoder().decode(files['pass.json'])) as Record<string, unknown>;
    expect(pass).toMatchObject({ formatVersion: 1, passTypeIdentifier: 'pass.test.expo', teamIdentifier: 'ABCDE12345', serialNumber: '1308-IWHBZIMYEOZETLFI' });
    expect(pass['barcodes']).toEqual([{ format: 'PKBarcodeFormatQR', message: 'IWHBZIMYEOZETLFI', messageEncoding: 'iso-8859-1', altText: 'IWHBZIMYEOZETLFI' }]);
    const fields = Object.values(pass['eventTicket'] as Record<string, { key: string; value: string }[]>).flat();
    expect(fields).toContainEqual(expect.objectContaining({ key: 'name', value: '张一' }));
    expect(fields.find((f) => f.key === 'class')?.value).toBeTruthy();
    expect(String(pass['organizationName'])).not.toBe('');

    const info = pkijs.ContentInfo.fromBER(files['signature']!);
    expect(info.contentType).toBe('1.2.840.113549.1.7.2');
    const signed = new pkijs.SignedData({ schema: info.content });
    expect(signed.encapContentInfo.eContent, 'detached').toBeUndefined();
    expect(signed.certificates).toHaveLength(2);
    const attrs = signed.signerInfos[0]?.signedAttrs?.attributes.map((a) => a.type) ?? [];
    expect(attrs).toEqual(expect.arrayContaining(['1.2.840.113549.1.9.3', '1.2.840.113549.1.9.4', '1.2.840.113549.1.9.5']));
    const ok = await signed.verify({ signer: 0, data: files['manifest.json']!.slice().buffer, trustedCerts: [secrets.ca], checkChain: true });
    expect(ok).toBe(true);
    // the manifest of another pass does not verify with this signature
    const other = new TextEncoder().encode(JSON.stringify({ ...manifest, 'pass.json': '0'.repeat(40) }));
    await expect(signed.verify({ signer: 0, data: other.slice().buffer, trustedCerts: [secrets.ca], checkChain: true }).catch(() => false)).resolves.toBe(false);
  });

  it('HEAD answers the headers with no body', async () => {
    const res = await get(PATH, withSecrets(), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    expect((await get(passPath({ ...params, euCode: 'NOSUCHCODE000000' }), withSecrets(), { method: 'HEAD' })).status).toBe(404);
  });

  it('a code that is not a registration is a 404; another expo\'s code is not this contact\'s: no pass', async () => {
    const unknown = await get(passPath({ ...params, euCode: 'NOSUCHCODE000000' }), withSecrets());
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).not.toBe('application/vnd.apple.pkpass');
    const other = await get(passPath({ ...params, expoId: 1108, urlId: 21108, fId: 21108 }), withSecrets());
    expect(other.status).toBe(303);
    expect(other.headers.get('content-type')).not.toBe('application/vnd.apple.pkpass');
  });

  it('a registration awaiting review (1106, one@demo.test) gets no pass, even for its owner (spec §2.5)', async () => {
    const review = { urlId: 21106, euCode: 'MMN6R4ECDU5ZN4EI', expoId: 1106, fId: 21106 };
    const cookie = `vc=${await signContact({ expoId: 1106, contact: 'one@demo.test', checkType: 2, codes: [review.euCode] }, testEnv.SESSION_SECRET ?? '', Date.now())}`;
    const res = await get(passPath(review), withSecrets(), {}, cookie);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toBe('application/vnd.apple.pkpass');
  });

  it('issue 19 item 3: a stolen pass link (no cookie, another contact\'s, an expired one) gets no pass, only the credential page', async () => {
    const page = routePath({ screen: 'credential', variant: variantByExpoId(1308), params });
    for (const cookie of [null, await ownerCookie(['SOMEONEELSE00000']), await ownerCookie([params.euCode], Date.now() - 11 * 60_000), 'vc=forged.value']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await get(PATH, withSecrets(), { method }, cookie);
        expect(res.status, `${method} ${cookie}`).toBe(303);
        expect(res.headers.get('location')).toBe(page);
        expect(res.headers.get('content-type')).not.toBe('application/vnd.apple.pkpass');
      }
    }
  });

  it('a broken key or a key of another certificate: logged, no pass', async () => {
    const other = await makeSecrets();
    for (const broken of [{ APPLE_PASS_KEY: other.vars['APPLE_PASS_KEY']! }, { APPLE_PASS_CERT: '-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----' }]) {
      expect((await get(PATH, withSecrets(broken))).status).toBe(404);
    }
  });

  it('40 identical requests at once: 40 passes with the same pass.json', async () => {
    // Each request holds a credential-miss slot while the upstream answers (functions/credential-lookup.ts),
    // so 40 at once from one address pass only with the miss limit raised; its own test is credential-lookup.worker.test.ts.
    const e = withSecrets({ LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR: '1000' });
    const replies = await Promise.all(Array.from({ length: 40 }, () => get(PATH, e)));
    const bodies = await Promise.all(replies.map(async (r) => (r.status === 200 ? new TextDecoder().decode(unzipSync(new Uint8Array(await r.arrayBuffer()))['pass.json']) : String(r.status))));
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ serialNumber: '1308-IWHBZIMYEOZETLFI' });
  });

  it('a post, cross-site or with a huge body, gets no pass', async () => {
    for (const init of [
      { method: 'POST', headers: { origin: 'https://evil.example' } },
      { method: 'POST', body: 'x'.repeat(2_000_000), headers: { 'content-type': 'application/octet-stream' } },
      { method: 'PUT' },
    ]) {
      const res = await get(PATH, withSecrets(), init);
      expect(res.status, init.method).not.toBe(200);
      expect(res.headers.get('content-type')).not.toBe('application/vnd.apple.pkpass');
    }
  });

  describe('paths that are not a credential\'s: 404 before any upstream call', () => {
    let fake: ReturnType<typeof installFakeUpstream> | null = null;
    afterEach(() => fake?.restore());

    it('the fake upstream is asked for a real path (so the check below means something)', async () => {
      fake = installFakeUpstream();
      await get(PATH, withSecrets({ UPSTREAM_URL: FAKE_BASE }));
      expect(fake.calls.length).toBeGreaterThan(0);
    });

    it.each([
      '/pass/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/MTMwOA/21308',
      '/pass/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/MTMwOA/21308.png',
      '/pass/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/MTMwOA/21308.pkpass?x=1',
      '/pass/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/MTMwOA/21308.pkpass/extra',
      '/pass/MjEzMDg/PHNjcmlwdD4/MTMwOA/21308.pkpass',
      `/pass/MjEzMDg/${'QUJD'.repeat(40)}/MTMwOA/21308.pkpass`,
      '/pass/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/MTMwOA/0.pkpass',
      '/pass/junk/SVdIQlpJTVlFT1pFVExGSQ/MTMwOA/21308.pkpass',
      '/pass/../../etc/passwd.pkpass',
      '/pass/',
    ])('%s', async (path) => {
      fake = installFakeUpstream();
      const res = await get(path, withSecrets({ UPSTREAM_URL: FAKE_BASE }));
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).not.toBe('application/vnd.apple.pkpass');
      expect(fake.calls).toEqual([]);
    });
  });
});
