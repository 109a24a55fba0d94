/**
 * Property-based tests of the reference upstream (functions/reference), called directly
 * (`reference.request(path, init, env)`), so they hold whatever gates its HTTP face: every call
 * of docs/upstream.md's first table plus camera5, unknown calls and wrong methods. Inputs: expoId
 * headers of every shape, params encrypted with the expo's key, with another key, not base64,
 * with broken padding, truncated, decrypting to bytes that are not UTF-8, plain; bodies of the
 * wrong types, nested, huge, not JSON; unicode of every kind.
 *
 * Invariants: HTTP 200 with a `{code, msg, data}` envelope (docs/upstream.md "Wire rules"), never
 * code 500 (the reference's "unexpected failure"), a non-empty `msg` on every refusal, success
 * `data` of the encrypted calls decrypts with the expo's key, no stack frame or internal path,
 * small headers.
 *
 * Also the gate of the HTTP face through the Worker app (known hole being fixed): `/custom/*`
 * and `/wx/*` answer 404 unless REF_HTTP=1 and the `x-ref-secret` header match, never with an
 * UPSTREAM_URL; `/dev/*` only with DEV_OUTBOX=1 and no UPSTREAM_URL.
 */
import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import reference from '../../functions/reference';
import { Path } from '../../src/lib/contract';
import { decryptJson, encrypt } from '../../src/lib/contract/aes';
import {
  MISSING,
  anyText,
  Findings,
  fuzz,
  fuzzFile,
  hasMarker,
  headerText,
  hugeText,
  mutations,
  present,
  rarely,
  replyViolations,
  type Violation,
} from './fuzz.helpers';

const testEnv = env as unknown as AppEnv;

/** Generated inputs this file must run (with fuzz-api's, well over 10,000). */
const MIN_RUNS = 5_000;
const newFindings = fuzzFile('fuzz-reference', MIN_RUNS);

// ---- The seed, read once (functions/reference/SEED.md) ----

const KEYS = new Map<number, string>();
const URLS = new Map<number, number[]>();
const EU_CODES = new Map<number, string[]>();
const ACTIVITIES = new Map<number, number[]>();
let SECOND_FORMS: Array<{ userId: number; urlsId: number; expoId: number }> = [];

const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => m.set(k, [...(m.get(k) ?? []), v]);

beforeAll(async () => {
  const db = testEnv.DB;
  for (const r of (await db.prepare('SELECT id, aes_key FROM expos').all<{ id: number; aes_key: string }>()).results)
    KEYS.set(r.id, r.aes_key);
  for (const r of (await db.prepare('SELECT id, expo_id FROM customer_urls').all<{ id: number; expo_id: number }>())
    .results)
    push(URLS, r.expo_id, r.id);
  for (const r of (
    await db
      .prepare('SELECT eu_code, expo_id FROM registrations ORDER BY id')
      .all<{ eu_code: string; expo_id: number }>()
  ).results)
    push(EU_CODES, r.expo_id, r.eu_code);
  for (const r of (await db.prepare('SELECT id, expo_id FROM activities').all<{ id: number; expo_id: number }>())
    .results)
    push(ACTIVITIES, r.expo_id, r.id);
  SECOND_FORMS = (
    await db
      .prepare(
        'SELECT s.user_id AS userId, s.urls_id AS urlsId, r.expo_id AS expoId FROM second_forms s JOIN registrations r ON r.id = s.user_id',
      )
      .all<{ userId: number; urlsId: number; expoId: number }>()
  ).results;
});

/** Expos the calls are about: seeded ones, weighted to those with demo contacts and special rules. */
const EXPO_IDS = [1308, 1308, 1308, 1108, 1179, 1178, 1178, 976, 2001, 2002, 785, 1216, 2005] as const;
const EMAILS = [
  'one@demo.test',
  'several@demo.test',
  'none@demo.test',
  'second@demo.test',
  'exhibitor@demo.test',
  'repair@demo.test',
  'supplement@demo.test',
  'ONE@demo.test',
];
const PHONES = [
  '+8613800138000',
  '+8613900139000',
  '+66800000003',
  '+66800000002',
  '+62811000002',
  '+886912345678',
  '+85261234567',
  '13800138000',
];

// ---- Encrypted params: the expo's key, or broken in one of many ways ----

type EncMode =
  | 'valid'
  | 'wrong-key'
  | 'non-base64'
  | 'bad-padding'
  | 'truncated'
  | 'not-utf8'
  | 'plain'
  | 'spaces'
  | 'empty'
  | 'huge';
const encMode: fc.Arbitrary<EncMode> = fc.oneof(
  { weight: 24, arbitrary: fc.constant<EncMode>('valid') },
  { weight: 1, arbitrary: fc.constant<EncMode>('spaces') },
  {
    weight: 2,
    arbitrary: fc.constantFrom<EncMode>(
      'wrong-key',
      'non-base64',
      'bad-padding',
      'truncated',
      'not-utf8',
      'plain',
      'empty',
      'huge',
    ),
  },
);

const b64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** AES-CBC of raw bytes with key = IV (for ciphertexts that decrypt to bytes that are not UTF-8). */
async function encryptBytes(bytes: Uint8Array<ArrayBuffer>, aesKey: string): Promise<string> {
  const raw = new TextEncoder().encode(aesKey);
  const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-CBC' }, false, ['encrypt']);
  return b64(new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv: raw }, key, bytes)));
}

/** An encrypted param of `plain` for the expo's key, broken as `mode` says. */
async function param(plain: string, mode: EncMode, aesKey: string): Promise<string> {
  switch (mode) {
    case 'valid':
      return encrypt(plain, aesKey);
    case 'wrong-key':
      return encrypt(plain, 'wrongWrongKey123');
    case 'non-base64':
      return `**${plain}**~`;
    case 'bad-padding': {
      const bytes = unb64(await encrypt(plain, aesKey));
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x5a;
      return b64(bytes);
    }
    case 'truncated':
      return (await encrypt(plain, aesKey)).slice(0, -4);
    case 'not-utf8':
      return encryptBytes(new Uint8Array([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1]), aesKey);
    case 'plain':
      return plain;
    case 'spaces':
      // A careless client leaves `+` unencoded in a query: it arrives as a space.
      return (await encrypt(plain, aesKey)).replace(/\+/g, ' ');
    case 'empty':
      return '';
    case 'huge':
      return 'QUJD'.repeat(1_500);
  }
}

/** An expoId header that names no expo: missing, malformed, or unknown. */
const badHeader: fc.Arbitrary<string | null> = fc.oneof(
  fc.constantFrom(null, '9999', '1308.0', '0', '-5', '99999999999999', '0x51c', '1e3', ''),
  headerText,
);
/** The expoId header: the call's expo (sometimes with spaces around it). */
const expoHeader: fc.Arbitrary<'EXPO' | 'EXPO '> = fc.oneof(
  { weight: 14, arbitrary: fc.constant<'EXPO'>('EXPO') },
  { weight: 1, arbitrary: fc.constant<'EXPO '>('EXPO ') },
);

/** One generated call, before its params are encrypted. */
interface CallSpec {
  name: string;
  method: string;
  path: string;
  expoId: number;
  /** 'EXPO': the call's expo id; 'EXPO ': the same with spaces around it */
  header: string | null;
  /** query params: [value, how it is encrypted ('none': sent as is)] */
  query: Record<string, [unknown, EncMode | 'none']>;
  /** JSON body (POST) */
  body?: Record<string, unknown> | undefined;
  /** addUserInfo's `data`: the form values and how they are encrypted */
  data?: [unknown, EncMode] | undefined;
  /** bad values replacing some query params, body fields or form values (by name) */
  bad?: Array<[string, unknown]> | undefined;
}

const q = (arb: fc.Arbitrary<unknown>): fc.Arbitrary<[unknown, 'none']> =>
  arb.map((v): [unknown, 'none'] => [v, 'none']);
const qe = (arb: fc.Arbitrary<string>): fc.Arbitrary<[unknown, EncMode]> => fc.tuple(arb, encMode);
const some = <T>(items: readonly T[], fallback: T): fc.Arbitrary<T> =>
  fc.constantFrom(...(items.length ? items : [fallback]));

/** Send-code paths with the contacts each accepts (docs/upstream.md: +86 bare, +886, other area codes, e-mail senders). */
const SENDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  [Path.getCaptcha, ['13800138000', '13900139000', '13700000001']],
  [Path.getSmsGJTWCode, ['+886912345678']],
  [Path.getSmsGJEnCode, ['+66800000003', '+62811000002', '+85261234567']],
  [Path.getemailCode, EMAILS],
  [Path.getemailCodeEn, EMAILS],
  [Path.getemailCodeTw, EMAILS],
  [Path.getemailCodeVietnam, EMAILS],
  [Path.getemailCodeYN, EMAILS],
];

/** Every call of docs/upstream.md's first table and camera5, valid for a seeded expo but for a few generated faults. */
function callSpec(): fc.Arbitrary<CallSpec> {
  return fc.constantFrom(...EXPO_IDS).chain((expoId) => {
    const base = { expoId: fc.constant(expoId), header: expoHeader };
    const urls = URLS.get(expoId) ?? [20000 + expoId];
    const id = String(expoId);
    const record = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T, badNames: readonly string[]) =>
      fc.record({ ...base, ...fields, bad: mutations(badNames) }) as unknown as fc.Arbitrary<CallSpec>;
    const second = SECOND_FORMS.filter((f) => f.expoId === expoId);
    const values = fc
      .record(
        {
          uname: fc.constantFrom('Fuzz Visitor', '测试', 'ناصر', '😀'),
          contact: fc.oneof(
            some(EMAILS, 'none@demo.test').map((email) => ({ email })),
            some(PHONES, '+66800000003').map((phone) => ({ phone })),
            fc
              .constantFrom('812345678', '13800138000')
              .map((phone) => ({ phone, areaCode: phone.startsWith('1') ? '+86' : '+66' })),
          ),
          ucompany: fc.constantFrom('Demo Co.', '公司'),
          ucompanyTitle: fc.constantFrom('CEO', '经理'),
          ucardid: fc.integer({ min: 1000, max: 9999 }).map((n) => `FUZZ-${n}`),
          cardType: fc.constantFrom<unknown>(1, '2'),
          update: fc.constant(true),
          euCode: some(EU_CODES.get(expoId) ?? [], 'NOPE'),
          activityId: some<unknown>(ACTIVITIES.get(expoId) ?? [], MISSING),
          userId: some<unknown>(
            second.map((f) => f.userId),
            MISSING,
          ),
          extra: fc.dictionary(
            fc.string({ maxLength: 10 }).filter((k) => !hasMarker(k)),
            fc.oneof(anyText, fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 })),
            { maxKeys: 3 },
          ),
        },
        { requiredKeys: ['uname', 'contact'] },
      )
      .map(({ contact, extra, ...rest }) => present({ ...(extra ?? {}), ...rest, ...contact }));
    const calls: Array<[number, fc.Arbitrary<CallSpec>]> = [
      [
        2,
        record(
          {
            name: fc.constant('selectAESKey'),
            method: fc.constant('GET'),
            path: fc.constant(Path.selectAESKey),
            query: fc.record({ expoId: q(fc.constantFrom(id, MISSING)) }),
          },
          ['expoId'],
        ),
      ],
      [
        2,
        record(
          {
            name: fc.constant('getCustomerId'),
            method: fc.constant('GET'),
            path: fc.constant(Path.getCustomerId),
            query: fc.record({
              fId: q(some(urls.map(String), id)),
              eId: q(fc.constant(id)),
              ty: q(fc.constantFrom('visitor', 'exhibitor', '', MISSING)),
            }),
          },
          ['fId', 'eId', 'ty'],
        ),
      ],
      [
        3,
        fc.constantFrom(...SENDS).chain(([path, contacts]) =>
          record(
            {
              name: fc.constant('send'),
              method: fc.constant('POST'),
              path: fc.constant(path),
              query: fc.constant({}),
              body: fc.record({
                smsPhone: fc.oneof(
                  { weight: 8, arbitrary: fc.constantFrom(...contacts) },
                  { weight: 1, arbitrary: fc.constantFrom(...PHONES, ...EMAILS) },
                ),
                expoId: fc.constantFrom<unknown>(expoId, id, MISSING),
              }),
            },
            ['smsPhone', 'expoId'],
          ),
        ),
      ],
      [
        2,
        record(
          {
            name: fc.constant('captchaVerify'),
            method: fc.constant('GET'),
            path: fc.constant(Path.captchaVerify),
            query: fc.record({
              captcha: q(fc.constantFrom('123456', '000000', '2468')),
              phone: q(fc.constantFrom(...EMAILS, ...PHONES)),
            }),
          },
          ['captcha', 'phone'],
        ),
      ],
      ...(['phone', 'email'] as const).map((kind): [number, fc.Arbitrary<CallSpec>] => [
        3,
        record(
          {
            name: fc.constant(kind === 'phone' ? 'queryUserExpoId' : 'queryEmailUserExpoId'),
            method: fc.constant('GET'),
            path: fc.constant(kind === 'phone' ? Path.queryUserExpoId : Path.queryEmailUserExpoId),
            query: fc
              .record({
                expoId: qe(fc.constant(id)),
                contact: qe(fc.constantFrom(...(kind === 'phone' ? PHONES : EMAILS))),
                // the bypass code of spec §2.2 (1308, url 10542, e-mail) reaches the records without a sent code
                bypass: fc.boolean(),
                captcha: qe(fc.constantFrom('123456', '000000')),
                urlsMode: fc.constantFrom<EncMode | 'none'>('none', 'none', 'valid'),
              })
              .map(({ contact, bypass, captcha, urlsMode, ...rest }) => {
                const useBypass = bypass && kind === 'email' && expoId === 1308;
                return {
                  ...rest,
                  [kind]: contact,
                  captcha: useBypass ? (['2468', captcha[1]] as [unknown, EncMode]) : captcha,
                  ...(useBypass ? { urlsId: ['10542', urlsMode] as [unknown, EncMode | 'none'] } : {}),
                };
              }),
          },
          ['expoId', kind, 'captcha', 'urlsId'],
        ),
      ]),
      [
        2,
        record(
          {
            name: fc.constant('queryFromUserExpoId'),
            method: fc.constant('GET'),
            path: fc.constant(Path.queryFromUserExpoId),
            query: (second.length
              ? fc.constantFrom(...second)
              : fc.constant({ userId: 100001, urlsId: urls[0] ?? 1 })
            ).chain((f) =>
              fc.record({
                userId: q(fc.constant(String(f.userId))),
                urlsId: q(fc.constant(String(f.urlsId))),
                expoId: q(fc.constantFrom(id, MISSING)),
              }),
            ),
          },
          ['userId', 'urlsId', 'expoId'],
        ),
      ],
      [
        2,
        record(
          {
            name: fc.constant('queryCustomerCode'),
            method: fc.constant('GET'),
            path: fc.constant(Path.queryCustomerCode),
            query: fc.record({ expoId: qe(fc.constant(id)), euCode: qe(some(EU_CODES.get(expoId) ?? [], 'NOPE')) }),
          },
          ['expoId', 'euCode'],
        ),
      ],
      [
        3,
        record(
          {
            name: fc.constant('addUserInfo'),
            method: fc.constant('POST'),
            path: fc.constant(Path.addUserInfo),
            query: fc.constant({}),
            body: fc.record({
              expoId: fc.constantFrom<unknown>(expoId, id, MISSING),
              urlsId: some(urls, 20000 + expoId),
            }),
            data: fc.tuple(values, encMode),
          },
          [
            'expoId',
            'urlsId',
            'uname',
            'email',
            'phone',
            'areaCode',
            'ucompany',
            'ucardid',
            'cardType',
            'update',
            'euCode',
            'activityId',
            'userId',
          ],
        ),
      ],
      [
        2,
        record(
          {
            name: fc.constant('camera5'),
            method: fc.constant('POST'),
            path: fc.constant(Path.camera5),
            query: fc.constant({}),
            body: fc.record({
              image: fc.oneof(
                {
                  weight: 6,
                  arbitrary: fc.integer({ min: 0, max: 200 }).map((n) => `/9j/4AAQSkZJRgABAQAAAQABAAD${'A'.repeat(n)}`),
                },
                {
                  weight: 1,
                  arbitrary: fc.constantFrom(
                    '',
                    'short',
                    'A'.repeat(2_000_001),
                    'data:image/jpeg;base64,/9j/',
                    '/9j/!!',
                  ),
                },
              ),
            }),
          },
          ['image'],
        ),
      ],
    ];
    return fc.oneof(...calls.map(([weight, arbitrary]) => ({ weight, arbitrary })));
  });
}

/** Unknown calls and wrong methods (a real call path with the other method): still an envelope. */
const unknownCall: fc.Arbitrary<CallSpec> = fc
  .record({
    expoId: fc.constantFrom(...EXPO_IDS),
    header: expoHeader,
    name: fc.constant('unknown'),
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
    path: fc.oneof(
      fc.constantFrom(
        '/nope',
        '/CustomerUserInfo',
        '/sms/',
        '/customFrom/getCustomerId/extra',
        '/CUSTOMERUSERINFO/SELECTAESKEY',
        Path.addUserInfo,
        Path.camera5,
      ),
      fc.webSegment().map((seg) => `/${seg}`),
    ),
    query: fc.constant({}),
  })
  .map((spec) =>
    spec.path === Path.addUserInfo || spec.path === Path.camera5
      ? { ...spec, method: spec.method === 'POST' ? 'GET' : spec.method }
      : spec,
  );

/** How a POST body is sent: JSON (mostly), not JSON, or under another content type. */
const bodyForm = fc.record({
  raw: rarely(fc.oneof(fc.constantFrom('', '{', 'null', '[]', '"x"', '{"data":'), hugeText, anyText), 14),
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | null>('application/json') },
    { weight: 1, arbitrary: fc.constantFrom<string | null>(null, 'text/plain', 'application/x-www-form-urlencoded') },
    { weight: 1, arbitrary: headerText },
  ),
});

/** A param or field value as text (wrong types as their JSON). */
const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/** Builds the request of a generated call (encrypting its params with the expo's key). */
async function requestOf(
  spec: CallSpec,
  form: { raw: string | null; contentType: string | null },
): Promise<{ url: string; init: RequestInit }> {
  const aesKey = KEYS.get(spec.expoId) ?? 'expo1308AesKey00';
  const bad = new Map(spec.bad ?? []);
  const url = new URL(`http://reference.invalid/custom${spec.path}`);
  for (const [k, [value, mode]] of Object.entries(spec.query)) {
    const v = bad.has(k) ? bad.get(k) : value;
    if (v === MISSING) continue;
    url.searchParams.set(k, mode === 'none' ? asText(v) : await param(asText(v), mode, aesKey));
  }
  const headers = new Headers();
  const header =
    spec.header === 'EXPO' ? String(spec.expoId) : spec.header === 'EXPO ' ? ` ${spec.expoId} ` : spec.header;
  if (header !== null) headers.set('expoId', header);
  const init: RequestInit = { method: spec.method, headers };
  if (spec.method !== 'GET' && spec.method !== 'HEAD') {
    const body: Record<string, unknown> = { ...(spec.body ?? {}) };
    if (spec.data) {
      const [values, mode] = spec.data;
      const data =
        typeof values === 'object' && values !== null && !Array.isArray(values)
          ? { ...(values as Record<string, unknown>) }
          : values;
      if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
        for (const [k, v] of bad) if (k !== 'expoId' && k !== 'urlsId') (data as Record<string, unknown>)[k] = v;
      }
      body['data'] = await param(
        JSON.stringify(typeof data === 'object' && data !== null ? present(data as Record<string, unknown>) : data) ??
          'null',
        mode,
        aesKey,
      );
    }
    for (const [k, v] of bad)
      if (k in body || k === 'smsPhone' || k === 'image' || k === 'expoId' || k === 'urlsId') body[k] = v;
    if (form.contentType !== null) headers.set('content-type', form.contentType);
    init.body = form.raw ?? JSON.stringify(present(body));
  }
  return { url: url.toString(), init };
}

/** Calls whose success `data` is encrypted (docs/upstream.md). */
const ENCRYPTED_DATA = new Set(['getCustomerId', 'queryUserExpoId', 'queryEmailUserExpoId', 'queryCustomerCode']);

async function envelopeViolations(spec: CallSpec, res: Response): Promise<Violation[]> {
  const out: Violation[] = [];
  if (res.status !== 200) {
    out.push({ rule: `${spec.name}: HTTP ${res.status}, not 200`, detail: (await res.text()).slice(0, 160) });
    return out;
  }
  let env: unknown;
  try {
    env = await res.json();
  } catch {
    out.push({ rule: `${spec.name}: reply is not JSON`, detail: '' });
    return out;
  }
  const e = env as { code?: unknown; msg?: unknown; data?: unknown };
  if (typeof e.code !== 'number' || typeof e.msg !== 'string' || !('data' in (env as object))) {
    out.push({ rule: `${spec.name}: not a {code, msg, data} envelope`, detail: JSON.stringify(env).slice(0, 160) });
    return out;
  }
  if (e.code === 500) out.push({ rule: `${spec.name}: code 500 (unexpected failure)`, detail: e.msg.slice(0, 160) });
  if (![200, 201, 202].includes(e.code) && e.msg.trim() === '')
    out.push({ rule: `${spec.name}: refusal without msg`, detail: String(e.code) });
  if (e.code === 200 && ENCRYPTED_DATA.has(spec.name)) {
    const aesKey = KEYS.get(spec.expoId) ?? '';
    const ok =
      typeof e.data === 'string' &&
      (await decryptJson(e.data, aesKey).then(
        () => true,
        () => false,
      ));
    if (!ok)
      out.push({
        rule: `${spec.name}: success data does not decrypt with the expo's key`,
        detail: String(e.data).slice(0, 80),
      });
  }
  return out;
}

/** Calls the reference with a generated call; the reply's violations. */
async function runCall(
  findings: Findings,
  { spec, form }: { spec: CallSpec; form: { raw: string | null; contentType: string | null } },
): Promise<Violation[]> {
  const { url, init } = await requestOf(spec, form);
  const res = await reference.request(url, init, testEnv);
  const code = await res
    .clone()
    .json()
    .then(
      (j) => (j as { code?: unknown }).code,
      () => 'not JSON',
    );
  // by call and reply code: shows how many inputs got past the first check
  findings.status(`${spec.name}:${res.status === 200 ? String(code) : `HTTP ${res.status}`}`);
  return [...(await replyViolations(res.clone())), ...(await envelopeViolations(spec, res))];
}

describe('fuzz: the reference upstream', () => {
  // Every D1 query costs milliseconds in workerd: the deep property gets fewer runs than the cheap one.
  it('every call with a seeded expo: an envelope, never code 500, a msg on every refusal, nothing leaked', async () => {
    const findings = newFindings();
    await fuzz(findings, fc.record({ spec: callSpec(), form: bodyForm }), 1_200, (g) => runCall(findings, g));
    findings.expectNone('reference calls');
  }, 120_000);

  it('every call with an expoId header that names no expo, unknown calls, wrong methods: the same', async () => {
    const findings = newFindings();
    const spec = fc.oneof(
      unknownCall,
      callSpec().chain((s) => badHeader.map((header) => ({ ...s, header }))),
    );
    await fuzz(findings, fc.record({ spec, form: bodyForm }), 4_200, (g) => runCall(findings, g));
    findings.expectNone('reference headers/unknown');
  }, 120_000);
});

// ---- The gate of the HTTP face (through the Worker app) ----

describe('the reference HTTP face is gated', () => {
  const app = createApp();
  const SECRET = 'ref-http-secret-0123456789abcdef';
  type GateEnv = AppEnv & { REF_HTTP?: string; REF_HTTP_SECRET?: string };
  const on: GateEnv = { ...testEnv, REF_HTTP: '1', REF_HTTP_SECRET: SECRET };
  const keyCall = (e: AppEnv, headers: Record<string, string> = {}) =>
    app.request(
      'https://expo.example/custom/CustomerUserInfo/selectAESKey',
      { headers: { expoId: '1308', ...headers } },
      e,
    );

  it('/custom/* answers 404 without REF_HTTP=1 (no aesKey to anyone who asks)', async () => {
    const res = await keyCall(testEnv);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(KEYS.get(1308) ?? 'expo1308AesKey00');
  });

  it('/custom/* answers 404 with REF_HTTP=1 but a missing or wrong x-ref-secret', async () => {
    expect((await keyCall(on)).status).toBe(404);
    expect((await keyCall(on, { 'x-ref-secret': 'wrong' })).status).toBe(404);
    expect((await keyCall(on, { 'x-ref-secret': `${SECRET}x` })).status).toBe(404);
  });

  it('/custom/* answers with REF_HTTP=1 and the right x-ref-secret', async () => {
    const res = await keyCall(on, { 'x-ref-secret': SECRET });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { code: number }).code).toBe(200);
  });

  it('/custom/* and /wx/* answer 404 whenever UPSTREAM_URL is set, secret or not', async () => {
    const upstream: GateEnv = { ...on, UPSTREAM_URL: 'https://upstream.test' };
    expect((await keyCall(upstream, { 'x-ref-secret': SECRET })).status).toBe(404);
    expect(
      (await app.request('https://expo.example/wx/getOpenId', { headers: { 'x-ref-secret': SECRET } }, upstream))
        .status,
    ).toBe(404);
  });

  it('/wx/* answers 404 without REF_HTTP=1', async () => {
    expect((await app.request('https://expo.example/wx/getwxAppId?expoId=1308', {}, testEnv)).status).toBe(404);
  });

  it('/dev/* only with DEV_OUTBOX=1 and no UPSTREAM_URL', async () => {
    const outbox = (e: AppEnv) => app.request('https://expo.example/dev/outbox', {}, e);
    expect((await outbox(testEnv)).status).toBe(200);
    expect((await outbox({ ...testEnv, DEV_OUTBOX: undefined } as unknown as AppEnv)).status).toBe(404);
    expect((await outbox({ ...testEnv, UPSTREAM_URL: 'https://upstream.test' })).status).toBe(404);
  });
});
