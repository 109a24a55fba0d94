/**
 * A fake payment provider on another origin over https (issue 19 item 9), for the browser
 * specs: a small Node https server with a self-signed certificate made by openssl at test time
 * (nothing committed), standing in for a real provider's cashier.
 *
 * - `GET /pay/{orderNo}?expoId=&totalFee=&returnUrl=` (what the reference hands out with
 *   `REF_CASHIER_URL`): a cashier page with the amount and a "Pay" button (a form posting to
 *   this origin).
 * - `POST /pay/{orderNo}`: sends the provider's signed notification to the Worker's
 *   `/custom/customFrom/payNotify`, server to server (HMAC-SHA-256 of the body under the merchant
 *   key, header `x-pay-signature`, as functions/reference/payments.ts reads it), then sends the
 *   browser back to the absolute `returnUrl` with `pay=paid` (or `failed`). Like a real
 *   provider it returns only to the merchant's own site.
 */
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakeCashier {
  /** https://localhost:port/pay: the value of REF_CASHIER_URL */
  url: string;
  /** every notification sent, with the Worker's reply */
  notifications: Array<{ body: string; status: number; reply: string }>;
  close(): Promise<void>;
}

/** A self-signed certificate for localhost and 127.0.0.1 (one RSA key; about 0.1 s). */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-cashier-'));
  try {
    execFileSync(
      'openssl',
      [
        'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '1',
        '-subj', '/CN=localhost/O=Expo Pass tests (fake cashier)',
        '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * Starts the cashier on `port` (0: a free one); `site` is the Worker (http://127.0.0.1:port),
 * `secret` its REF_PAY_SECRET.
 */
export async function startFakeCashier(site: string, secret: string, port = 0): Promise<FakeCashier> {
  const notifications: FakeCashier['notifications'] = [];
  const server: Server = createServer(selfSigned(), (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const m = /^\/pay\/([A-Za-z0-9_-]{6,64})$/.exec(url.pathname);
      if (!m) {
        res.writeHead(404).end('not found');
        return;
      }
      const orderNo = m[1] ?? '';
      if (req.method === 'GET') {
        const q = url.searchParams;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Fake cashier</title></head>
<body><h1>Fake cashier</h1><p>Order <span id="order">${esc(orderNo)}</span>, amount <span id="amount">${esc(q.get('totalFee') ?? '')}</span></p>
<form method="post" action="/pay/${esc(orderNo)}">
<input type="hidden" name="expoId" value="${esc(q.get('expoId') ?? '')}">
<input type="hidden" name="totalFee" value="${esc(q.get('totalFee') ?? '')}">
<input type="hidden" name="returnUrl" value="${esc(q.get('returnUrl') ?? '')}">
<button name="result" value="SUCCESS">Pay</button> <button name="result" value="FAIL">Decline</button>
</form></body></html>`);
        return;
      }
      let raw = '';
      for await (const chunk of req) raw += String(chunk);
      const form = new URLSearchParams(raw);
      const returnUrl = new URL(form.get('returnUrl') ?? '', site);
      if (returnUrl.origin !== new URL(site).origin) {
        res.writeHead(400).end('returnUrl is not the merchant site');
        return;
      }
      const result = form.get('result') === 'SUCCESS' ? 'SUCCESS' : 'FAIL';
      const body = JSON.stringify({
        expoId: Number(form.get('expoId')),
        orderNo,
        txId: `FAKE${randomBytes(10).toString('hex')}`,
        totalFee: Number(form.get('totalFee')),
        result,
      });
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      const r = await fetch(`${site}/custom/customFrom/payNotify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', expoId: String(form.get('expoId')), 'x-pay-signature': signature },
        body,
      });
      const reply = await r.text();
      notifications.push({ body, status: r.status, reply });
      const ok = result === 'SUCCESS' && r.ok && (JSON.parse(reply) as { code: number }).code === 200;
      returnUrl.searchParams.set('pay', ok ? 'paid' : 'failed');
      res.writeHead(303, { location: returnUrl.href }).end();
    })().catch((e: unknown) => {
      res.writeHead(500).end(String(e));
    });
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${bound}/pay`,
    notifications,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
