/**
 * Issue 19 item 3 ("throttle credential misses per address") and item 13 ("unknown codes are not
 * negative-cached") on the built Worker, as an attacker runs them: a second Worker with the
 * production defaults (UNKNOWN_CODE_CACHE_TTL_S 60) but LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR
 * lowered to 30 (its default, 300, sits above a crowd behind one address: docs/limits.md) is
 * started with `UPSTREAM_URL` pointing at a counting proxy in front of the reference upstream's
 * HTTP face (served by the suite's own Worker), which counts `queryCustomerCode` calls. HTTP only.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from '@playwright/test';
import { freePort } from '../../scripts/lib.mjs';
import { baseUrl, t, test } from './fixtures';
import { caseOf, credentialPath, lookupUrl, textPattern } from './lookup-helpers';
import { startSecondWorker, stopSecondWorker } from './second-worker';

const IEAE = caseOf('IEAE');
const LIMIT = 30;

interface Proxy {
  server: Server;
  url: string;
  /** queryCustomerCode calls */
  credentialCalls: number;
}

async function countingProxy(target: string): Promise<Proxy> {
  const proxy: Proxy = { server: createServer(), url: '', credentialCalls: 0 };
  proxy.server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', target);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers[k] = v;
    void (async () => {
      if (url.pathname.endsWith('/customFrom/queryCustomerCode')) proxy.credentialCalls++;
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const r = await fetch(url, { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) });
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await r.arrayBuffer()));
    })().catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
  return proxy;
}

/** A 16-character code nobody registered. */
const guess = (i: number) => `GUESS${String(i).padStart(3, '0')}XXXXXXXX`;

test.describe('credential misses on the built Worker', { tag: '@http' }, () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  let proxy: Proxy;
  let worker: ChildProcess;
  let site: string;

  test.beforeAll(async ({}, info) => {
    info.setTimeout(150_000);
    proxy = await countingProxy(baseUrl(info));
    // E2E_SECOND_PORT: a fixed port for runs by hand that must stay in a port range
    const port = Number(process.env['E2E_SECOND_PORT'] ?? 0) || (await freePort());
    ({ child: worker, site } = await startSecondWorker(port, `.wrangler/e2e-misses-${port}`, { UPSTREAM_URL: proxy.url, LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR: String(LIMIT) }));
  });

  test.afterAll(async () => {
    await stopSecondWorker(worker);
    await new Promise((r) => proxy?.server.close(r));
  });

  const view = (path: string) => fetch(site + path, { headers: { cookie: '_h5_lang=en' }, redirect: 'manual' });

  test('a dead link opened 10 times costs one upstream call, and each view leads to the lookup', async () => {
    const before = proxy.credentialCalls;
    for (let i = 0; i < 10; i++) {
      const res = await view(credentialPath(IEAE, 'DEADLINK00000001'));
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain(t('en', 'success.lookupLink'));
      expect(html).toContain(`href="${lookupUrl(IEAE)}"`);
    }
    expect(proxy.credentialCalls - before).toBe(1);
  });

  test(`40 guessed codes at once from one address: the upstream sees at most ${LIMIT} misses, the rest get a 429 page in the visitor's language`, async () => {
    const before = proxy.credentialCalls;
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => view(credentialPath(IEAE, guess(i)))));
    const statuses = replies.map((r) => r.status);
    const asked = proxy.credentialCalls - before;
    // one miss was counted by the dead link above
    expect(asked).toBe(LIMIT - 1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(LIMIT - 1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - (LIMIT - 1));
    const refused = replies.find((r) => r.status === 429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(3000);
    const html = (await refused?.text()) ?? '';
    expect(html).toMatch(textPattern(t('en', 'limit.attemptsMinutes')));
    expect(html).toContain(`href="${lookupUrl(IEAE)}"`);
    await Promise.all(replies.map((r) => r.arrayBuffer().catch(() => null)));
    // over the limit the upstream is not asked, not even for a real code (the wait is on the page)
    const real = await view(credentialPath(IEAE, IEAE.one.euCode));
    expect(real.status).toBe(429);
    expect(proxy.credentialCalls - before).toBe(LIMIT - 1);
  });
});
