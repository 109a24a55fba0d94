/**
 * The upstream client over real HTTP against the reference upstream served by the built
 * Worker (docs/upstream.md: "a test suite that speaks only this page must be able to stand in for
 * the upstream"; here the other way round: the client speaks to the Worker's `/custom/*`).
 * No browser page: the Playwright runner only supplies the server (webServer) and baseURL.
 */
import { expect } from '@playwright/test';
import { test } from './fixtures';
import { createAesKeyCache } from '../../functions/upstream/aes-key-cache';
import { createUpstream, type Upstream } from '../../functions/upstream/client';

/** Expo 1308 (IEAE) and its exhibitor customer url 10542 (spec §2.2), in the reference seed. */
const EXPO = 1308;
const EXHIBITOR_URL_ID = 10542;

function client(): Upstream {
  const baseUrl = test.info().project.use.baseURL ?? process.env['BASE_URL'];
  if (!baseUrl) throw new Error('set use.baseURL in playwright.config or BASE_URL to the served Worker');
  // A cache of its own: each test reads the key from the server, not from another test.
  return createUpstream({
    baseUrl,
    fetch: (req) => globalThis.fetch(req),
    timeoutMs: 5000,
    keyCache: createAesKeyCache(),
  });
}

test.describe('upstream client over HTTP against the reference upstream', { tag: '@http' }, () => {
  test('selectAESKey gives expo 1308 a 16-character key', async () => {
    const r = await client().selectAESKey(EXPO);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(new TextEncoder().encode(r.data.aesKey).byteLength).toBe(16);
  });

  test('getCustomerId decrypts the form config of expo 1308', async () => {
    const r = await client().getCustomerId({ expoId: EXPO, fId: EXHIBITOR_URL_ID });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.data.expoInfo?.id).toBe(EXPO);
    expect(r.data.customerUrls?.id).toBe(EXHIBITOR_URL_ID);
  });

  test('queryCustomerCode for an unknown euCode is a refusal, not a crash', async () => {
    const r = await client().queryCustomerCode({ expoId: EXPO, euCode: 'NO-SUCH-EU-CODE' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('refused');
    expect(r.code).not.toBe(200);
  });
});
