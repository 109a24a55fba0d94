/**
 * The share card's calls in the reference upstream (docs/upstream.md "Messaging app"):
 * `GET /wx/getwxAppId` answers `REF_WX_APP_ID` for every expo (unset: 404, no app, no share
 * card), and `GET /CustomerUserInfo/ajaxData` signs a page URL as the messaging app's JS-SDK
 * does: SHA-1 (hex) of `jsapi_ticket=…&noncestr=…&timestamp=…&url=…`, here with a demo ticket
 * (rules.ts DEMO_JSAPI_TICKET). `userId` is read and not needed. The reference never sends its
 * ticket. `GET /wx/checkExpo` (spec §7 "expo check with encoded expoId") answers `{ id }` when
 * `eId` (base64url as page URLs carry it, padded base64 or a plain decimal) names the header's expo.
 */
import type { Context } from 'hono';
import { RefCode, ok, reply } from '../envelope';
import type { RefEnv } from '../expo';
import { DEMO_JSAPI_TICKET, SHARE_URL_MAX } from '../rules';

const APP_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The JS-SDK signature of a page: SHA-1 hex of the four values in this order (the vendor's rule). */
export async function jsSdkSignature(p: { ticket: string; nonceStr: string; timestamp: string; url: string }): Promise<string> {
  const text = `jsapi_ticket=${p.ticket}&noncestr=${p.nonceStr}&timestamp=${p.timestamp}&url=${p.url}`;
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** 16 characters from a CSPRNG, `[A-Za-z0-9]`. */
function nonce(): string {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => abc[b % abc.length]).join('');
}

/** `GET /wx/getwxAppId`: the demo app id, or 404 when none is set. */
export function getwxAppId(c: Context<RefEnv>): Response {
  const id = (c.env.REF_WX_APP_ID ?? '').trim();
  if (!APP_ID.test(id)) return reply(c, RefCode.NOT_FOUND, 'no messaging app for this expo (REF_WX_APP_ID is not set)');
  return ok(c, id);
}

/** `GET /CustomerUserInfo/ajaxData`: `{ success, timestamp, nonceStr, signature }` for an http(s) `url`. */
export async function ajaxData(c: Context<RefEnv>): Promise<Response> {
  const url = c.req.query('url') ?? '';
  let parsed: URL | null = null;
  try {
    parsed = url.length <= SHARE_URL_MAX ? new URL(url) : null;
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.hash !== '') {
    return reply(c, RefCode.BAD_INPUT, `bad input: url must be an http(s) page URL without a #fragment, at most ${SHARE_URL_MAX} characters`);
  }
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonceStr = nonce();
  const signature = await jsSdkSignature({ ticket: DEMO_JSAPI_TICKET, nonceStr, timestamp, url });
  return ok(c, { success: true, timestamp, nonceStr, signature });
}

/** An encoded expo id (base64url without padding, padded base64, or a plain decimal) as a number; null when it is none. */
export function decodeExpoId(eId: string): number | null {
  const v = eId.trim();
  if (/^[1-9]\d{0,9}$/.test(v)) return Number(v);
  if (!/^[A-Za-z0-9_+/-]{2,16}={0,2}$/.test(v)) return null;
  try {
    const text = atob(v.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '').padEnd(Math.ceil(v.replace(/=+$/, '').length / 4) * 4, '='));
    return /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}

/** `GET /wx/checkExpo`: `{ id }` for an `eId` naming the header's expo; 400 for one that names another or none. */
export function checkExpo(c: Context<RefEnv>): Response {
  const id = decodeExpoId(c.req.query('eId') ?? '');
  if (id === null) return reply(c, RefCode.BAD_INPUT, 'bad input: eId must be an encoded expo id (base64url of its decimal)');
  if (id !== c.var.expo.id) return reply(c, RefCode.BAD_INPUT, 'bad input: eId does not name the expoId header\'s expo');
  return ok(c, { id });
}
