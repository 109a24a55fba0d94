/**
 * Helpers of the reference upstream's workerd tests: call the app in-process (STYLE.md §6)
 * with the test env, speak the wire contract (AES with the expo's own key), read the outbox.
 */
import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { decryptJson, encrypt } from '../../src/lib/contract/aes';
import type { AppEnv } from '../../functions/env';
import app from '../../functions/reference/index';
import type { EnvelopeBody } from '../../functions/reference/envelope';

/** The edge project's bindings (vitest.config.ts): DEV_OUTBOX '1', BYPASS_CODE '2468'. */
export const testEnv = env as unknown as AppEnv;

/** Options of one call. */
export interface CallOptions {
  expoId?: number | string | null;
  query?: Record<string, string>;
  body?: unknown;
  env?: AppEnv;
  method?: 'GET' | 'POST';
}

/** Calls `/custom{path}` in-process and returns the parsed envelope. */
export async function call(path: string, opts: CallOptions = {}): Promise<EnvelopeBody> {
  const res = await raw(`/custom${path}`, opts);
  expect(res.status).toBe(200);
  return (await res.json()) as EnvelopeBody;
}

/** Calls any path in-process and returns the Response. */
export async function raw(path: string, opts: CallOptions = {}): Promise<Response> {
  const url = new URL(`http://ref${path}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (opts.expoId !== null && opts.expoId !== undefined) headers['expoId'] = String(opts.expoId);
  const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
  const init: RequestInit = { method, headers };
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  }
  return app.fetch(new Request(url, init), opts.env ?? testEnv);
}

/** The expo's aesKey, read through selectAESKey. */
export async function aesKeyOf(expoId: number): Promise<string> {
  const r = await call('/CustomerUserInfo/selectAESKey', { expoId });
  expect(r.code).toBe(200);
  return (r.data as { aesKey: string }).aesKey;
}

/** Encrypts a param with the expo's key. */
export async function enc(text: string | number, expoId: number): Promise<string> {
  return encrypt(String(text), await aesKeyOf(expoId));
}

/** Decrypts encrypted `data` with the expo's key. */
export async function dec(data: unknown, expoId: number): Promise<unknown> {
  expect(typeof data).toBe('string');
  return decryptJson(data as string, await aesKeyOf(expoId));
}

/** Sends a code by a send-code call. */
export function send(path: string, expoId: number, smsPhone: string): Promise<EnvelopeBody> {
  return call(`/sms/${path}`, { expoId, body: { smsPhone, expoId } });
}

/** The latest code the outbox holds for a contact. */
export async function outboxCode(contact: string): Promise<string> {
  const res = await raw(`/dev/outbox.json?to=${encodeURIComponent(contact)}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { code: string };
  return body.code;
}

/** Runs a lookup with encrypted params. */
export async function lookupCall(
  kind: 'phone' | 'email',
  expoId: number,
  contact: string,
  captcha: string,
  extra: Record<string, string> = {},
): Promise<EnvelopeBody> {
  const path = kind === 'phone' ? '/customFrom/queryUserExpoId' : '/customFrom/queryEmailUserExpoId';
  const query: Record<string, string> = {
    expoId: await enc(expoId, expoId),
    captcha: await enc(captcha, expoId),
    ...extra,
  };
  query[kind] = await enc(contact, expoId);
  return call(path, { expoId, query });
}

/** Shifts every stored time of a contact's codes and sends back by `ms` (as if that much time had passed). */
export async function age(contact: string, ms: number): Promise<void> {
  await testEnv.DB.batch([
    testEnv.DB.prepare(
      'UPDATE verification_codes SET created_at = created_at - ?1, expires_at = expires_at - ?1 WHERE contact = ?2',
    ).bind(ms, contact),
    testEnv.DB.prepare('UPDATE send_log SET sent_at = sent_at - ?1 WHERE contact = ?2').bind(ms, contact),
  ]);
}
