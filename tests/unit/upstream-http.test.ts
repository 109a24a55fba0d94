/**
 * The upstream client over REAL HTTP (Node's fetch against a local node:http server): every
 * transport fault of a misbehaving upstream becomes its typed UpstreamError, never another
 * exception. Each route prefix is one misbehaviour; the client's base URL picks it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encrypt, encryptJson } from '../../src/lib/contract/aes';
import { createAesKeyCache } from '../../functions/upstream/aes-key-cache';
import { createUpstream } from '../../functions/upstream/client';
import { Path } from '../../src/lib/contract';
import { UpstreamError, type UpstreamErrorKind } from '../../functions/upstream/errors';

const KEY = 'abcdefgh12345678';
const TIMEOUT_MS = 300;

let server: Server;
let origin: string;
const expoIdHeaders: (string | undefined)[] = [];

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A well-behaved selectAESKey, so the faults below hit the call after it. */
function keyReply(res: ServerResponse): void {
  json(res, { code: 200, msg: 'ok', data: { aesKey: KEY } });
}

type Route = (req: IncomingMessage, res: ServerResponse, path: string) => void | Promise<void>;

const ROUTES: Record<string, Route> = {
  async ok(_req, res, path) {
    if (path === Path.selectAESKey) return keyReply(res);
    json(res, { code: 200, msg: 'ok', data: await encryptJson({ expoInfo: { id: 1308, exhiName: 'IEAE' } }, KEY) });
  },
  timeout() {
    // Never answers: the client's own timeout must end the call.
  },
  status500: (_q, res) => json(res, { code: 500, msg: 'boom' }, 500),
  status404: (_q, res) => json(res, { code: 404, msg: 'no' }, 404),
  status405: (_q, res) => json(res, { code: 405, msg: 'method' }, 405),
  status403: (_q, res) => json(res, { code: 403, msg: 'forbidden' }, 403),
  status502(_q, res) {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<h1>Bad gateway</h1>');
  },
  text(_q, res) {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello, not json');
  },
  nocode: (_q, res) => json(res, { msg: 'where is my code', data: null }),
  undecryptable(_q, res, path) {
    if (path === Path.selectAESKey) return keyReply(res);
    json(res, { code: 200, msg: 'ok', data: 'bm90IGNpcGhlcnRleHQ=' });
  },
  async wrongkey(_q, res, path) {
    if (path === Path.selectAESKey) return keyReply(res);
    json(res, { code: 200, msg: 'ok', data: await encryptJson({ expoInfo: {} }, 'zyxwvuts87654321') });
  },
  async wrongshape(_q, res, path) {
    if (path === Path.selectAESKey) return keyReply(res);
    json(res, { code: 200, msg: 'ok', data: await encrypt('[1, 2, 3]', KEY) });
  },
  nokey: (_q, res) => json(res, { code: 404, msg: 'unknown expo 1308', data: null }),
  reset(_q, res) {
    // Headers, then the connection drops mid-body.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"code":200,');
    setTimeout(() => res.socket?.destroy(), 20);
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    expoIdHeaders.push(req.headers['expoid'] as string | undefined);
    const url = new URL(req.url ?? '/', 'http://x');
    const [, prefix = '', ...rest] = url.pathname.split('/');
    const path = '/' + rest.join('/');
    const route = ROUTES[prefix];
    if (!route || !path.startsWith('/custom/')) return json(res, { code: 404, msg: 'no route' }, 404);
    void route(req, res, path.slice('/custom'.length));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function clientFor(base: string) {
  return createUpstream({
    baseUrl: base,
    fetch: (req) => globalThis.fetch(req),
    timeoutMs: TIMEOUT_MS,
    keyCache: createAesKeyCache(),
  });
}

/** The error a call rejects with; fails the test when it resolves. */
async function failure(p: Promise<unknown>): Promise<UpstreamError> {
  const outcome = await p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(UpstreamError);
  return outcome.error as UpstreamError;
}

describe('a well-behaved upstream over HTTP', () => {
  it('works end to end, with the expoId header', async () => {
    const r = await clientFor(`${origin}/ok`).getCustomerId({ expoId: 1308, fId: 10542 });
    expect(r).toMatchObject({ ok: true, data: { expoInfo: { id: 1308, exhiName: 'IEAE' } } });
    expect(expoIdHeaders.slice(-2)).toEqual(['1308', '1308']);
  });
});

describe('each fault of the upstream is its typed UpstreamError', () => {
  it('no reply within the timeout → timeout', async () => {
    const started = Date.now();
    const err = await failure(clientFor(`${origin}/timeout`).selectAESKey(1308));
    expect(err.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it.each([
    ['status500', 500],
    ['status404', 404],
    ['status405', 405],
    ['status403', 403],
    ['status502', 502],
  ])('%s → http with the status', async (prefix, status) => {
    const err = await failure(clientFor(`${origin}/${prefix}`).selectAESKey(1308));
    expect(err.kind).toBe('http');
    expect(err.status).toBe(status);
    expect(err.path).toBe(Path.selectAESKey);
  });

  it.each<[string, UpstreamErrorKind]>([
    ['text', 'not-json'],
    ['nocode', 'bad-data'],
    ['undecryptable', 'bad-data'],
    ['wrongkey', 'bad-data'],
    ['wrongshape', 'bad-data'],
    ['nokey', 'no-key'],
    ['reset', 'network'],
  ])('%s → %s', async (prefix, kind) => {
    const err = await failure(clientFor(`${origin}/${prefix}`).getCustomerId({ expoId: 1308, fId: 10542 }));
    expect(err.kind).toBe(kind);
  });

  it('a closed port → network', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const err = await failure(clientFor(`http://127.0.0.1:${port}`).selectAESKey(1308));
    expect(err.kind).toBe('network');
  });
});
