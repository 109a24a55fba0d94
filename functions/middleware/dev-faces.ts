import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/**
 * The reference upstream's HTTP face (`/custom/*`, `/wx/*`) and the development outbox
 * (`/dev/*`) are for local runs. The edge calls the reference in-process and
 * needs neither; over HTTP the reference trusts its caller (it is the organiser's API: it hands
 * out aesKeys, takes `update` without a code, reads ID numbers), so on a deployment it must not
 * answer at all.
 *
 * - Never when `UPSTREAM_URL` is set (a real API is in use).
 * - `/custom/*`, `/wx/*`: only with `REF_HTTP=1`, and then with the header `x-ref-secret`
 *   equal to `REF_HTTP_SECRET`; without a secret configured, only on a loopback host
 *   (`npm start` on 127.0.0.1).
 * - `/dev/*`: only with `DEV_OUTBOX=1`; `/dev/pay/*` (the payment simulator) also with `PAY_SIMULATOR=1`.
 * - `POST /custom/customFrom/payNotify` (the payment provider's callback, server to server) also
 *   whenever `REF_PAY_SECRET` is set: every notification is HMAC-signed with it, so a provider on
 *   the internet can reach the embedded reference without opening the rest of its face.
 * Anything else is Hono's plain 404, as for a path that does not exist.
 */
export const REF_SECRET_HEADER = 'x-ref-secret';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** Compares two strings in time that depends only on their lengths. */
function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Whether the reference's HTTP face answers this request. */
export function referenceFaceOpen(env: Pick<AppEnv, 'UPSTREAM_URL' | 'REF_HTTP' | 'REF_HTTP_SECRET'>, url: URL, header: string | undefined): boolean {
  if ((env.UPSTREAM_URL ?? '').trim() !== '' || env.REF_HTTP !== '1') return false;
  const secret = env.REF_HTTP_SECRET ?? '';
  if (secret === '') return LOOPBACK.test(url.hostname);
  return header !== undefined && sameSecret(header, secret);
}

/** The provider's callback: open with a merchant key (signed notifications only), never with UPSTREAM_URL. */
export const PAY_NOTIFY_PATH = '/custom/customFrom/payNotify';
export function payNotifyOpen(env: Pick<AppEnv, 'UPSTREAM_URL' | 'REF_PAY_SECRET'>): boolean {
  return (env.UPSTREAM_URL ?? '').trim() === '' && (env.REF_PAY_SECRET ?? '').trim().length >= 16;
}

/** Whether the development outbox answers. */
export function devOutboxOpen(env: Pick<AppEnv, 'UPSTREAM_URL' | 'DEV_OUTBOX'>): boolean {
  return (env.UPSTREAM_URL ?? '').trim() === '' && env.DEV_OUTBOX === '1';
}

/** Whether the reference's payment simulator (`/dev/pay/*`) answers: with the outbox, or `PAY_SIMULATOR=1`. */
export function paySimulatorOpen(env: Pick<AppEnv, 'UPSTREAM_URL' | 'DEV_OUTBOX' | 'PAY_SIMULATOR'>): boolean {
  return (env.UPSTREAM_URL ?? '').trim() === '' && (env.DEV_OUTBOX === '1' || env.PAY_SIMULATOR === '1');
}

/** Hono middleware in front of the reference app: 404 unless the face is open for this request. */
export function devFaces(): MiddlewareHandler<{ Bindings: AppEnv }> {
  return async function devFacesGate(c, next) {
    const url = new URL(c.req.url);
    const open = url.pathname === PAY_NOTIFY_PATH && c.req.method === 'POST' && payNotifyOpen(c.env)
      ? true
      : url.pathname.startsWith('/dev/pay/')
      ? paySimulatorOpen(c.env)
      : url.pathname.startsWith('/dev/')
      ? devOutboxOpen(c.env)
      : referenceFaceOpen(c.env, url, c.req.header(REF_SECRET_HEADER));
    return open ? next() : c.notFound();
  };
}
