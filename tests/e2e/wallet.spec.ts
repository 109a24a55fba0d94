/**
 * Issue 13's wallet passes, end to end on the built Worker. openssl makes, in the test, a CA
 * standing in for Apple's WWDR intermediate, a pass certificate it signed, and an RSA key for a
 * Google service account (tests/wallet-certs.ts); a second Worker is started with the five
 * APPLE_* and three GOOGLE_WALLET_* secrets (`node scripts/start.mjs --no-build`, which hands
 * them to wrangler as secrets). On a seeded credential page, for the visitor whose own lookup
 * found the code (issue 19 item 3: the pass carries the attendee's name), both links show; the `.pkpass` unzips (the `unzip` tool), every manifest hash matches,
 * `openssl smime -verify` accepts its signature against the test CA; the Google link's JWT
 * verifies RS256 with the test public key and holds the euCode. The suite's own server (no
 * secrets) shows neither link and has no pass. The same link without that visitor's cookie (a
 * chat history, a shared phone) shows neither link nor the name, and the pass URL leads to the
 * credential page instead of a pass. HTTP only: the page ships no JavaScript, so
 * nothing here depends on the browser's setting.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, createVerify } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { freePort } from '../../scripts/lib.mjs';
import { makeWalletTestCerts, opensslVerify, type WalletTestCerts } from '../wallet-certs';
import { baseUrl, lookUpByEmail, t, test, visitorHeaders } from './fixtures';
import { caseOf, credentialPath } from './lookup-helpers';
import { startSecondWorker, stopSecondWorker } from './second-worker';
import { passPath } from '../../src/lib/core/routes';

const IEAE = caseOf('IEAE');
const CODE = IEAE.one.euCode;
const PAGE = credentialPath(IEAE, CODE);
const passOf = (euCode: string) => passPath({ urlId: IEAE.fId, euCode, expoId: IEAE.expoId, fId: IEAE.fId });
const PASS = passOf(CODE);
const ISSUER_ID = '3388000000012345678';
const SA_EMAIL = 'wallet-test@expo-pass-tests.iam.gserviceaccount.com';

/** The eight wallet secrets, from the test's own certificates. */
const walletSecrets = (certs: WalletTestCerts): Record<string, string> => ({
  APPLE_PASS_TYPE_ID: 'pass.test.expo',
  APPLE_TEAM_ID: 'ABCDE12345',
  APPLE_PASS_CERT: certs.passCertPem,
  APPLE_PASS_KEY: certs.passKeyPem,
  APPLE_WWDR_CERT: certs.caPem,
  GOOGLE_WALLET_ISSUER_ID: ISSUER_ID,
  GOOGLE_WALLET_SA_EMAIL: SA_EMAIL,
  GOOGLE_WALLET_SA_KEY: certs.googleKeyPem,
});

/** The href of the link with this class on a page, HTML entities undone (`&amp;`), or null. */
function linkOf(html: string, cls: string): string | null {
  const href = new RegExp(`<a class="${cls}" href="([^"]+)"`).exec(html)?.[1];
  return href ? href.replace(/&amp;/g, '&') : null;
}

test.describe('wallet passes with the operator\'s secrets (issue 13)', { tag: '@http' }, () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let certs: WalletTestCerts;
  let worker: ChildProcess;
  let site: string;
  let persist: string;
  /** the visitor whose lookup found CODE (its cookie jar holds the `vc` cookie) */
  let owner: APIRequestContext;
  const ownerHtml = async () => (await owner.get(PAGE)).text();

  test.beforeAll(async ({}, info) => {
    info.setTimeout(120_000);
    certs = makeWalletTestCerts();
    const port = await freePort();
    persist = `.wrangler/e2e-wallet-${port}`;
    ({ child: worker, site } = await startSecondWorker(port, persist, walletSecrets(certs)));
    owner = await playwrightRequest.newContext({ baseURL: site, extraHTTPHeaders: visitorHeaders(info, 1) });
    await lookUpByEmail(owner, 'one@demo.test');
  });

  test.afterAll(async () => {
    await owner?.dispose();
    await stopSecondWorker(worker);
    if (certs) rmSync(certs.dir, { recursive: true, force: true });
    if (persist) rmSync(persist, { recursive: true, force: true }); // its database and the secrets file start.mjs wrote
  });

  test('the credential page shows both links to its owner and still ships no JavaScript', async () => {
    const res = await owner.get(PAGE);
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain(`>${t('zh', 'success.appleWallet')}</a>`);
    expect(html).toContain(`>${t('zh', 'success.googleWallet')}</a>`);
    expect(linkOf(html, 'apple')).toBe(PASS);
    expect(linkOf(html, 'google')).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\//);
    expect(html).not.toMatch(/<script[^>]+src=/);
    for (const secret of [certs.passKeyPem, certs.googleKeyPem]) {
      expect(html).not.toContain(secret.split('\n')[1]); // no line of a key reaches the page
    }
  });

  test('the .pkpass unzips, its manifest hashes match, and openssl accepts its signature', async () => {
    const html = await ownerHtml();
    const res = await owner.get(linkOf(html, 'apple') ?? '');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/vnd.apple.pkpass');
    expect(res.headers()['content-disposition']).toBe(`attachment; filename="${CODE}.pkpass"`);
    expect(res.headers()['cache-control']).toBe('private, no-store');

    const dir = join(certs.dir, 'pass');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '..', 'pass.pkpass'), await res.body());
    const unzip = spawnSync('unzip', ['-o', '-q', join(dir, '..', 'pass.pkpass'), '-d', dir], { encoding: 'utf8' });
    expect(unzip.status, unzip.stderr).toBe(0);
    const names = readdirSync(dir).sort();
    for (const f of ['icon.png', 'logo.png', 'manifest.json', 'pass.json', 'signature']) expect(names).toContain(f);

    const manifestBytes = readFileSync(join(dir, 'manifest.json'));
    const manifest = JSON.parse(manifestBytes.toString('utf8')) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(names.filter((n) => n !== 'manifest.json' && n !== 'signature'));
    for (const [name, sha1] of Object.entries(manifest)) {
      expect(createHash('sha1').update(readFileSync(join(dir, name))).digest('hex'), name).toBe(sha1);
    }

    const pass = JSON.parse(readFileSync(join(dir, 'pass.json'), 'utf8')) as Record<string, unknown>;
    expect(pass).toMatchObject({ formatVersion: 1, passTypeIdentifier: 'pass.test.expo', teamIdentifier: 'ABCDE12345', serialNumber: `1308-${CODE}` });
    expect(pass['barcodes']).toEqual([{ format: 'PKBarcodeFormatQR', message: CODE, messageEncoding: 'iso-8859-1', altText: CODE }]);
    const fields = Object.values(pass['eventTicket'] as Record<string, { key: string; label: string; value: string }[]>).flat();
    expect(fields).toContainEqual({ key: 'name', label: t('zh', 'success.name'), value: IEAE.one.name });

    const verified = opensslVerify(certs.dir, readFileSync(join(dir, 'signature')), manifestBytes);
    expect(verified.output).toContain('Verification successful');
    expect(verified.ok).toBe(true);
  });

  test('the pass speaks the visitor\'s language, like the page', async () => {
    await owner.post('/api/lang', { form: { lang: 'en', back: PAGE }, maxRedirects: 0 });
    const res = await owner.get(PASS);
    await owner.post('/api/lang', { form: { lang: 'zh', back: PAGE }, maxRedirects: 0 });
    expect(res.status()).toBe(200);
    const dir = join(certs.dir, 'pass-en');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(certs.dir, 'pass-en.pkpass'), await res.body());
    expect(spawnSync('unzip', ['-o', '-q', join(certs.dir, 'pass-en.pkpass'), '-d', dir]).status).toBe(0);
    const pass = JSON.parse(readFileSync(join(dir, 'pass.json'), 'utf8')) as { eventTicket: { primaryFields: { label: string }[] } };
    expect(pass.eventTicket.primaryFields[0]?.label).toBe(t('en', 'success.name'));
  });

  test('the Google Wallet JWT verifies RS256 with the test public key and holds the euCode', async () => {
    const html = await ownerHtml();
    const jwt = (linkOf(html, 'google') ?? '').slice('https://pay.google.com/gp/v/save/'.length);
    const [h = '', p = '', s = ''] = jwt.split('.');
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT' });
    const verifier = createVerify('RSA-SHA256');
    verifier.update(`${h}.${p}`);
    expect(verifier.verify(certs.googlePublicPem, Buffer.from(s, 'base64url'))).toBe(true);
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { iss: string; origins: string[]; payload: { genericObjects: { barcode: { value: string } }[] } };
    expect(claims.iss).toBe(SA_EMAIL);
    expect(claims.origins).toEqual([site]);
    expect(claims.payload.genericObjects[0]?.barcode.value).toBe(CODE);
    expect(JSON.stringify(claims.payload)).toContain(CODE);
  });

  test('an unknown code has no pass', async () => {
    const res = await owner.get(passOf('NOSUCHCODE000000'), { maxRedirects: 0 });
    expect(res.status()).not.toBe(200);
    expect(res.headers()['content-type']).not.toBe('application/vnd.apple.pkpass');
  });

  test('issue 19 item 3: the same links without the owner\'s cookie (a chat history, a shared phone): no wallet link, no name, no pass', async () => {
    const res = await fetch(site + PAGE);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(CODE); // the code and its QR stay: the gate needs them
    expect(html).not.toContain(IEAE.one.name);
    expect(linkOf(html, 'apple')).toBeNull();
    expect(linkOf(html, 'google')).toBeNull();
    expect(html).not.toContain('pay.google.com');
    const pass = await fetch(site + PASS, { redirect: 'manual' });
    expect(pass.status).toBe(303);
    expect(new URL(pass.headers.get('location') ?? '', site).pathname).toBe(PAGE);
    expect(pass.headers.get('content-type')).not.toBe('application/vnd.apple.pkpass');
  });
});

test.describe('wallet passes without the secrets (issue 13)', { tag: '@http' }, () => {
  test('the suite\'s own server shows neither link and has no pass', async ({ request }, info) => {
    const res = await request.get(baseUrl(info) + PAGE);
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain(CODE);
    expect(html).not.toContain(t('zh', 'success.appleWallet'));
    expect(html).not.toContain(t('zh', 'success.googleWallet'));
    expect(html).not.toContain('/pass/');
    expect(html).not.toContain('pay.google.com');
    const pass = await request.get(baseUrl(info) + PASS);
    expect(pass.status()).toBe(404);
  });
});
