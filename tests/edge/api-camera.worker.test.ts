/**
 * POST /api/camera as an attacker runs it (issue 19 item 4): the business-card OCR (spec §7
 * camera5) is the organiser's paid service. A bypass lookup (spec §2.2, which proved nothing) and
 * an expo whose config does not turn the business card on (`isOpenBusinessCard`) are refused in
 * the page's language, and the upstream's camera5 is never called for them.
 */
import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import reference from '../../functions/reference';
import { Path } from '../../src/lib/contract';
import { CONTACT_COOKIE, signContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { encodeId } from '../../src/lib/util/ids';
import { createT } from '../../src/i18n';

const testEnv = env as unknown as AppEnv;
const app = createApp();
const SECRET = testEnv.SESSION_SECRET ?? '';
const JPEG = `/9j/4AAQSkZJRgABAQAAAQABAAD${'A'.repeat(40)}`;
/** 2002 turns the business card on; 1308 (IEAE) does not (functions/reference/seed/0001_demo.sql). */
const ON = { route: 'form', path: `22002/${encodeId(2002)}/visitor` };
const OFF = { route: 'IEAEForm', path: `21308/${encodeId(1308)}/visitor` };

afterEach(() => vi.restoreAllMocks());

/** Counts the upstream's camera5 calls (the reference runs in-process). */
function countCamera5(): () => number {
  const spy = vi.spyOn(reference, 'fetch');
  return () =>
    spy.mock.calls.filter((c) => new URL((c[0] as Request).url).pathname === `/custom${Path.camera5}`).length;
}

async function post(
  vc: VerifiedContact | null,
  page: { route: string; path: string },
  lang: string,
): Promise<{ status: number; code: number; msg: string }> {
  const cookie = [`_h5_lang=${lang}`, ...(vc ? [`${CONTACT_COOKIE}=${await signContact(vc, SECRET)}`] : [])].join('; ');
  const res = await app.request(
    'https://expo.example/api/camera',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', cookie },
      body: JSON.stringify({ ...page, image: JPEG }),
    },
    testEnv,
  );
  const body = (await res.json()) as { code: number; msg: string };
  return { status: res.status, code: body.code, msg: body.msg };
}

describe('POST /api/camera (issue 19 item 4)', () => {
  it('a bypass cookie (spec §2.2: no code proven) is refused, in the page language, without an OCR call', async () => {
    const camera5 = countCamera5();
    for (const lang of ['en', 'zh'] as const) {
      const r = await post({ expoId: 2002, contact: 'none@demo.test', checkType: 2, bypass: true }, ON, lang);
      expect(r).toEqual({ status: 401, code: 401, msg: createT(lang)('form.verifyFirst') });
    }
    expect(camera5()).toBe(0);
  });

  it('a proven contact on an expo whose config does not turn the business card on is refused, without an OCR call', async () => {
    const camera5 = countCamera5();
    for (const lang of ['en', 'thai'] as const) {
      const r = await post({ expoId: 1308, contact: 'none@demo.test', checkType: 2 }, OFF, lang);
      expect(r).toEqual({ status: 403, code: 403, msg: createT(lang)('form.cameraOff') });
    }
    expect(camera5()).toBe(0);
  });

  it("another expo's proven contact is refused; the expo's own proven contact reaches the OCR (the count above can see a call)", async () => {
    const camera5 = countCamera5();
    expect((await post({ expoId: 1308, contact: 'none@demo.test', checkType: 2 }, ON, 'en')).status).toBe(401);
    expect(camera5()).toBe(0);
    const r = await post({ expoId: 2002, contact: 'none@demo.test', checkType: 2 }, ON, 'en');
    expect(r.status).toBe(200);
    expect(camera5()).toBe(1);
  });
});
