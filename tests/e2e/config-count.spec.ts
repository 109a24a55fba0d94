/**
 * The organiser is called once, not per view (issue 10), measured on the built Worker: a second
 * Worker is started with `UPSTREAM_URL` pointing at a counting proxy in front of the reference
 * upstream's HTTP face (served by the suite's own Worker). The proxy counts `getCustomerId`
 * calls per expo and url, can fail them, and can answer one url with another url's config (a
 * "changed" config). The second Worker's config cache lives 3 s (CONFIG_CACHE_TTL_S), so a
 * change shows within a few seconds. HTTP only: no browser page.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from '@playwright/test';
import { freePort } from '../../scripts/lib.mjs';
import { baseUrl, lookupPath, test } from './fixtures';
import { eid } from './lookup-helpers';
import { startSecondWorker, stopSecondWorker } from './second-worker';

const TTL_S = 3;

interface Proxy {
  server: Server;
  url: string;
  /** getCustomerId calls by `eId/fId` */
  counts: Map<string, number>;
  /** `eId/fId` → HTTP status to answer instead of forwarding */
  fail: Map<string, number>;
  /** `eId/fId` → the fId whose config to answer with */
  swap: Map<string, string>;
}

async function countingProxy(target: string): Promise<Proxy> {
  const counts = new Map<string, number>();
  const fail = new Map<string, number>();
  const swap = new Map<string, string>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers[k] = v;
    void (async () => {
      if (url.pathname.endsWith('/customFrom/getCustomerId')) {
        const key = `${url.searchParams.get('eId')}/${url.searchParams.get('fId')}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        const status = fail.get(key);
        if (status) {
          res.writeHead(status).end();
          return;
        }
        const other = swap.get(key);
        if (other) url.searchParams.set('fId', other);
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const r = await fetch(url, { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) });
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await r.arrayBuffer()));
    })().catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, counts, fail, swap };
}

test.describe('getCustomerId through the edge cache of the built Worker', { tag: '@http' }, () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let proxy: Proxy;
  let worker: ChildProcess;
  let site: string;

  test.beforeAll(async ({}, info) => {
    info.setTimeout(120_000);
    proxy = await countingProxy(baseUrl(info));
    const port = await freePort();
    ({ child: worker, site } = await startSecondWorker(port, `.wrangler/e2e-count-${port}`, {
      UPSTREAM_URL: proxy.url,
      CONFIG_CACHE_TTL_S: String(TTL_S),
      CONFIG_CACHE_STALE_S: '0',
    }));
  });

  test.afterAll(async () => {
    await stopSecondWorker(worker);
    await new Promise((r) => proxy?.server.close(r));
  });

  const views = async (path: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const r = await fetch(site + path, { redirect: 'manual' });
      expect(r.status, `${path} view ${i + 1}`).toBe(200);
      await r.arrayBuffer();
    }
  };

  test('20 views of a lookup page and of the 1308 home cost at most one getCustomerId each', async () => {
    await views(lookupPath('IEAESearch', 10542, 1308), 20);
    await views(`/21308/${eid(1308)}/visitor`, 20);
    expect(proxy.counts.get('1308/10542')).toBe(1);
    expect(proxy.counts.get('1308/21308')).toBe(1);
  });

  test('a failed load is not cached: the next view asks again and shows the config', async () => {
    const path = lookupPath('search', 22002, 2002);
    proxy.fail.set('2002/22002', 500);
    await views(path, 3);
    expect(proxy.counts.get('2002/22002')).toBe(3);
    proxy.fail.delete('2002/22002');
    await views(path, 3);
    expect(proxy.counts.get('2002/22002')).toBe(4);
  });

  test('a changed config shows after the TTL', async () => {
    const path = lookupPath('IEAESearch', 21308, 1308);
    const title = async () => /<title>([^<]*)<\/title>/.exec(await (await fetch(site + path)).text())?.[1];
    expect(await title()).toBe('IEAE 观众预登记');
    proxy.swap.set('1308/21308', '31308'); // the organiser changes the url's config: another formTitle
    expect(await title(), 'still the cached config within the TTL').toBe('IEAE 观众预登记');
    await expect.poll(title, { timeout: (TTL_S + 4) * 1000, intervals: [500] }).toBe('IEAE 专业观众通道');
  });
});
