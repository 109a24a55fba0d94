/**
 * Helpers of the lookup API's workerd tests (tests/edge/api-lookup.worker.test.ts): call the
 * whole app in-process (edge API + reference upstream on D1), carry cookies between requests
 * in a tiny jar, read the development outbox, decode the flash and verified-contact cookies.
 */
import { env } from 'cloudflare:test';
import { expect, vi } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import reference from '../../functions/reference';
import { decodeFlash, FLASH_COOKIE, type Flash } from '../../src/lib/page/flash';
import { CONTACT_COOKIE, verifyContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { encodeId } from '../../src/lib/util/ids';
import { LIMIT_SPECS } from '../../src/lib/security/limits';
import type { LookupReply, SendCodeReply } from '../../src/islands/lookup-types';

export const BASE = 'https://expo.example';
export const app = createApp();

/** Every abuse limit of the edge switched off (0), for tests about something else. */
export const LIFTED_LIMITS = Object.fromEntries(Object.values(LIMIT_SPECS).map((spec) => [spec.name, '0']));

/** The edge project's bindings (vitest.config.ts): DEV_OUTBOX '1', BYPASS_CODE '2468', SESSION_SECRET. */
export const testEnv = env as unknown as AppEnv;
/**
 * The per-address caps set low (the values of earlier versions): the defaults sit above any
 * crowd, so the mechanics of a cap (windows, waits, concurrency) are seen with a few requests.
 */
export const TIGHT_PER_ADDRESS = {
  LIMIT_SENDS_PER_IP_MIN: '5',
  LIMIT_SENDS_PER_IP_HOUR: '20',
  LIMIT_SENDS_PER_IP56_HOUR: '40',
  LIMIT_SENDS_PER_IP48_HOUR: '100',
  LIMIT_LOOKUPS_PER_IP_MIN: '30',
  LIMIT_LOOKUPS_PER_IP56_MIN: '60',
  LIMIT_LOOKUPS_PER_IP48_MIN: '120',
  LIMIT_WRONG_CODES_PER_IP_HOUR: '20',
  LIMIT_SEAT_LOOKUPS_PER_IP_MIN: '30',
  LIMIT_REGISTERS_PER_IP_HOUR: '60',
  LIMIT_ORDERS_PER_IP_HOUR: '30',
  LIMIT_DISCOUNT_TRIES_PER_IP_HOUR: '30',
  LIMIT_SHARE_SIGNATURES_PER_IP_MIN: '30',
  LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR: '30',
} as const;
/**
 * The same with the send limits lifted, for tests that send several codes: the reference's
 * (60 s gap, 5 an hour) and the edge's abuse limits (tests/edge/limits.worker.test.ts proves those).
 */
export const fastEnv: AppEnv = { ...testEnv, REF_SEND_INTERVAL_S: '0', REF_SENDS_PER_HOUR: '1000', ...LIFTED_LIMITS };
export const SECRET = testEnv.SESSION_SECRET ?? '';

/** One parsed Set-Cookie header. */
export interface SetCookie {
  name: string;
  value: string;
  attrs: Record<string, string>;
  raw: string;
}

/** Every Set-Cookie of a response, parsed (attribute names lower-cased). */
export function setCookies(res: Response): SetCookie[] {
  return res.headers.getSetCookie().map((raw) => {
    const [pair = '', ...rest] = raw.split(';');
    const eq = pair.indexOf('=');
    const attrs: Record<string, string> = {};
    for (const a of rest) {
      const i = a.indexOf('=');
      const k = (i < 0 ? a : a.slice(0, i)).trim().toLowerCase();
      if (k) attrs[k] = i < 0 ? '' : a.slice(i + 1).trim();
    }
    return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attrs, raw };
  });
}

/** The last Set-Cookie for `name`, or undefined. */
export function setCookie(res: Response, name: string): SetCookie | undefined {
  return setCookies(res)
    .filter((c) => c.name === name)
    .pop();
}

/** A browser's cookies for one site: stores Set-Cookie, drops expired ones, sends them back. */
export class Jar {
  private readonly cookies = new Map<string, string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.cookies.set(k, v);
  }

  store(res: Response): void {
    for (const c of setCookies(res)) {
      const expired = c.attrs['max-age'] !== undefined && Number(c.attrs['max-age']) <= 0;
      if (expired || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  get(name: string): string | undefined {
    const v = this.cookies.get(name);
    return v === undefined ? undefined : decodeURIComponent(v);
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Takes one cookie of another jar as it is (e.g. the code binding of the browser a code was sent from). */
  adopt(other: Jar, name: string): void {
    const v = other.cookies.get(name);
    if (v !== undefined) this.cookies.set(name, v);
  }
}

/** The hidden fields of a lookup page (DESIGN.md: ids as plain decimals). */
export interface Page {
  expoId: string;
  urlId: string;
  ty: string;
  variant: string;
  f: string;
  back?: string;
}

/** A page's hidden fields; `variant` '' is the generic /search screen. */
export function page(expoId: number, urlId: number, variant: string, more: Partial<Page> = {}): Page {
  return { expoId: String(expoId), urlId: String(urlId), ty: 'visitor', variant, f: '', ...more };
}

/** Where a no-JS post without a `back` field comes back to. */
export function backOf(p: Page): string {
  return `/${p.variant ? `${p.variant}Search` : 'search'}/${p.urlId}/${encodeId(Number(p.expoId))}/${p.ty}`;
}

export interface PostOptions {
  jar?: Jar;
  env?: AppEnv;
}

/** POSTs JSON as the island does (content-type and accept application/json); stores cookies in the jar. */
export async function postJson(path: string, body: Record<string, unknown>, opts: PostOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  const cookie = opts.jar?.header();
  if (cookie) headers['cookie'] = cookie;
  const res = await app.request(
    `${BASE}${path}`,
    { method: 'POST', headers, body: JSON.stringify(body) },
    opts.env ?? testEnv,
  );
  opts.jar?.store(res);
  return res;
}

/** POSTs a form as a browser without JavaScript does; stores cookies in the jar. */
export async function postForm(path: string, body: Record<string, string>, opts: PostOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const cookie = opts.jar?.header();
  if (cookie) headers['cookie'] = cookie;
  const res = await app.request(
    `${BASE}${path}`,
    { method: 'POST', headers, body: new URLSearchParams(body), redirect: 'manual' },
    opts.env ?? testEnv,
  );
  opts.jar?.store(res);
  return res;
}

export async function sendJson(
  body: Record<string, unknown>,
  opts: PostOptions = {},
): Promise<{ res: Response; reply: SendCodeReply }> {
  const res = await postJson('/api/send-code', body, opts);
  return { res, reply: (await res.clone().json()) as SendCodeReply };
}

export async function lookupJson(
  body: Record<string, unknown>,
  opts: PostOptions = {},
): Promise<{ res: Response; reply: LookupReply }> {
  const res = await postJson('/api/lookup', body, opts);
  return { res, reply: (await res.clone().json()) as LookupReply };
}

/** The flash cookie a response sets, decoded for `path` (null when absent or for another page). */
export function flashOf(res: Response, path: string): Flash | null {
  const c = setCookie(res, FLASH_COOKIE);
  return c ? decodeFlash(decodeURIComponent(c.value), path) : null;
}

/** The verified-contact cookie a response sets, checked with the test SESSION_SECRET. */
export async function vcOf(res: Response): Promise<VerifiedContact | null> {
  const c = setCookie(res, CONTACT_COOKIE);
  return c ? verifyContact(decodeURIComponent(c.value), SECRET) : null;
}

/** The latest code the development outbox holds for a contact (e-mail or E.164 phone). */
export async function outboxCode(contact: string): Promise<string> {
  const res = await app.request(`${BASE}/dev/outbox.json?to=${encodeURIComponent(contact)}`, {}, testEnv);
  expect(res.status, `outbox for ${contact}`).toBe(200);
  return ((await res.json()) as { code: string }).code;
}

/** How many codes the outbox holds for a contact (straight from D1). */
export async function outboxCount(contact: string): Promise<number> {
  const row = await testEnv.DB.prepare('SELECT count(*) AS n FROM outbox WHERE to_contact = ?')
    .bind(contact)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** A contact as the lookup form posts it. */
export type Typed = { checkType: '2'; email: string } | { checkType: '1'; areaCode: string; phone: string };

/** The contact as the outbox keys it: the e-mail lower-cased, or the full E.164 phone. */
export function outboxKey(t: Typed): string {
  return t.checkType === '2' ? t.email.toLowerCase() : `${t.areaCode}${t.phone}`;
}

/**
 * Sends a code through the edge API (JSON, limits lifted) and returns the code the reference
 * put in its outbox. The code is bound to the browser that asked for it (issue 19 item 6):
 * look it up with the same `jar`.
 */
export async function sendAndRead(p: Page, typed: Typed, jar: Jar): Promise<string> {
  const { res, reply } = await sendJson({ ...p, ...typed }, { jar, env: fastEnv });
  expect(res.status).toBe(200);
  expect(reply.code, JSON.stringify(reply)).toBe(200);
  return outboxCode(outboxKey(typed));
}

/** Counts the edge's calls to the in-process reference upstream (by call path) until restored. */
export function spyUpstream(): { paths: () => string[] } {
  const spy = vi.spyOn(reference, 'fetch');
  return {
    paths: () => spy.mock.calls.map((c) => new URL((c[0] as Request).url).pathname),
  };
}
