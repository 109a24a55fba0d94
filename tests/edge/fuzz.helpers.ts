/**
 * Shared parts of the property-based tests (fuzz-*.worker.test.ts, api-faults.worker.test.ts):
 * the invariants every reply must keep, a recorder that runs every generated input and then
 * reports each broken invariant once with its smallest example, the generators of nasty text
 * and values, and a builder that turns a generated request into a real `Request`.
 *
 * Why a recorder rather than throwing inside the property: today's code breaks several
 * invariants (known holes being fixed in parallel). Throwing would stop at the first one and
 * shrink for a long time; recording runs every input, keeps the run count fixed and reports
 * every broken invariant at once (`expect.soft`), each with the shortest input that broke it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, vi } from 'vitest';

/** Fixed seed: CI runs the same inputs every time. Change it locally to explore further. */
export const FUZZ_SEED = 20261019;

/** The site's origin in every in-process request. */
export const ORIGIN = 'https://expo.example';

// ---------------------------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------------------------

/** What must never appear in a reply body or header: stack frames and internal paths. */
export const LEAKS: ReadonlyArray<readonly [string, RegExp]> = [
  // "    at fn (file.js:1:2)", also JSON-escaped after "\n"
  ['stack frame', /(?:^|\n|\\n)\s*at [^\n]*?(?::\d+:\d+|<anonymous>|native code)/],
  ['"/work/"', /\/work\//],
  ['"functions/"', /functions\//],
  ['"node_modules"', /node_modules/],
  ['".ts:"', /\.ts:/],
];

/** A Location the browser resolves on this site: one `/`, then neither `/` nor `\`. */
export const SAME_SITE_PATH = /^\/(?![/\\])/;

/** Browsers drop a cookie whose name and value exceed 4096 bytes (RFC 6265 §6.1). */
export const MAX_COOKIE_BYTES = 4096;
/** Header budget of one reply: proxies and browsers refuse far less than nginx's 8 KB × n. */
export const MAX_HEADER_BYTES = 16 * 1024;

const utf8 = new TextEncoder();
const bytes = (s: string): number => utf8.encode(s).byteLength;

/** One broken invariant of one reply. */
export interface Violation {
  rule: string;
  detail: string;
}

export interface ReplyRules {
  /** 5xx statuses this reply may have (502/504: the API's deliberate answers to a failed upstream) */
  allow5xx?: readonly number[];
  /** the request's method (HEAD replies carry no body, so no message) */
  method?: string;
}

/** Checks one reply against the invariants every reply keeps; returns what it breaks. */
export async function replyViolations(res: Response, rules: ReplyRules = {}): Promise<Violation[]> {
  const out: Violation[] = [];
  const body = await res.text();
  const status = res.status;
  const short = `${status} ${abbreviate(body, 160)}`;

  if (status >= 500 && !(rules.allow5xx ?? []).includes(status)) out.push({ rule: `answers ${status}`, detail: short });

  const message = humanMessage(res, body);
  if (status >= 400 && status < 500 && rules.method !== 'HEAD' && message === null) {
    out.push({ rule: '4xx without a human message', detail: short });
  }
  const envelopeCode = jsonCode(res, body);
  if (envelopeCode !== null && envelopeCode >= 400 && envelopeCode < 1000 && message === null) {
    out.push({ rule: 'JSON error code without msg', detail: short });
  }

  const headerLines: string[] = [];
  res.headers.forEach((v, k) => {
    if (k.toLowerCase() !== 'set-cookie') headerLines.push(`${k}: ${v}`);
  });
  const cookies = res.headers.getSetCookie();
  for (const c of cookies) headerLines.push(`set-cookie: ${c}`);
  for (const [name, re] of LEAKS) {
    if (re.test(body)) out.push({ rule: `leaks ${name} in the body`, detail: short });
    const line = headerLines.find((l) => re.test(l));
    if (line) out.push({ rule: `leaks ${name} in a header`, detail: abbreviate(line, 160) });
  }

  for (const c of cookies) {
    const pair = c.split(';')[0] ?? '';
    if (bytes(pair) >= MAX_COOKIE_BYTES) {
      out.push({
        rule: `Set-Cookie of ${MAX_COOKIE_BYTES} bytes or more`,
        detail: `${status} ${pair.slice(0, pair.indexOf('='))}: ${bytes(pair)} bytes`,
      });
    }
  }
  const headerBytes = headerLines.reduce((n, l) => n + bytes(l) + 2, 0);
  if (headerBytes >= MAX_HEADER_BYTES)
    out.push({ rule: 'response headers of 16 KB or more', detail: `${status}: ${headerBytes} bytes` });

  if (status >= 300 && status < 400) {
    const location = res.headers.get('location');
    if (location === null) out.push({ rule: '3xx without Location', detail: short });
    else if (!SAME_SITE_PATH.test(location))
      out.push({
        rule: 'Location is not a same-site path',
        detail: `${status} Location: ${abbreviate(location, 160)}`,
      });
  }
  return out;
}

/** The human message of a reply: JSON `msg`/`error`/`data.message`, or a non-empty text body; null when none. */
export function humanMessage(res: Response, body: string): string | null {
  const type = res.headers.get('content-type') ?? '';
  if (/json/i.test(type)) {
    try {
      const j = JSON.parse(body) as Record<string, unknown>;
      for (const v of [j['msg'], j['error'], (j['data'] as Record<string, unknown> | null | undefined)?.['message']]) {
        if (typeof v === 'string' && v.trim() !== '') return v;
      }
      return null;
    } catch {
      return null;
    }
  }
  return body.trim() === '' ? null : body;
}

function jsonCode(res: Response, body: string): number | null {
  if (!/json/i.test(res.headers.get('content-type') ?? '')) return null;
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    return typeof j['code'] === 'number' ? j['code'] : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Recorder
// ---------------------------------------------------------------------------------------------

interface Finding {
  count: number;
  detail: string;
  input: string;
}

/** Runs of one fuzz test: counts inputs, keeps the shortest example of each broken invariant. */
export class Findings {
  runs = 0;
  private readonly byRule = new Map<string, Finding>();
  /** how many replies had each status: shows how deep the inputs reached */
  readonly statuses = new Map<number | string, number>();

  status(code: number | string): void {
    this.statuses.set(code, (this.statuses.get(code) ?? 0) + 1);
  }

  record(violations: readonly Violation[], input: unknown): void {
    for (const v of violations) {
      const described = describeInput(input);
      const seen = this.byRule.get(v.rule);
      if (!seen) this.byRule.set(v.rule, { count: 1, detail: v.detail, input: described });
      else {
        seen.count++;
        if (described.length < seen.input.length) {
          seen.detail = v.detail;
          seen.input = described;
        }
      }
    }
  }

  rules(): string[] {
    return [...this.byRule.keys()].sort();
  }

  /** One soft expectation per broken invariant, naming the count and the shortest example. */
  expectNone(label: string): void {
    const statuses = [...this.statuses]
      .sort(([a], [b]) => String(a).localeCompare(String(b)))
      .map(([k, n]) => `${k}×${n}`)
      .join(' ');
    console.info(
      `[fuzz] ${label}: ${this.runs} runs (statuses ${statuses}), broken: ${
        this.rules()
          .map((r) => `${r} ×${this.byRule.get(r)?.count ?? 0}`)
          .join('; ') || 'nothing'
      }`,
    );
    for (const rule of this.rules()) {
      const f = this.byRule.get(rule);
      if (!f) continue;
      expect
        .soft(f.count, `${label}: "${rule}" in ${f.count} of ${this.runs} runs; e.g. ${f.input} → ${f.detail}`)
        .toBe(0);
    }
  }
}

/** What the app logged with console.error during the current run (first line of each). */
const errorsLogged: string[] = [];

/**
 * Silences console.log (the dev outbox logs every code) and captures console.error, so a 5xx
 * is reported with the error the app logged for it. Call in beforeAll; vi.restoreAllMocks() undoes it.
 */
export function captureConsole(): void {
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    const first = args.find((a) => a instanceof Error) ?? args[0];
    const text = first instanceof Error ? `${first.name}: ${first.message}` : args.map(String).join(' ');
    errorsLogged.push(text.replace(/\s+/g, ' ').slice(0, 140));
  });
}

/**
 * Runs `numRuns` generated inputs through `run` and records what each reply breaks: `run`
 * answers the reply (checked with {@link replyViolations}) or its own list of violations.
 * `run` throwing (a harness bug, or the app throwing out of `app.request`) fails the test at once.
 */
export async function fuzz<T>(
  findings: Findings,
  arb: fc.Arbitrary<T>,
  numRuns: number,
  run: (input: T) => Promise<Response | readonly Violation[]>,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arb, async (input) => {
      findings.runs++;
      errorsLogged.length = 0;
      const out = await run(input);
      let violations: readonly Violation[];
      if (out instanceof Response) {
        findings.status(out.status);
        violations = await replyViolations(out);
      } else violations = out;
      // A 5xx is filed under the error the app logged for it, so different causes stay apart.
      const cause = errorsLogged[0];
      findings.record(
        violations.map((v) =>
          cause && /^answers 5\d\d$/.test(v.rule) ? { ...v, rule: `${v.rule} (logged: ${cause})` } : v,
        ),
        input,
      );
    }),
    { numRuns, seed: FUZZ_SEED, endOnFailure: true },
  );
}

/** Text shortened for a report: long runs cut, control and lone-surrogate characters escaped. */
export function abbreviate(s: string, max = 80): string {
  const escaped = JSON.stringify(s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s);
  return escaped.slice(1, -1);
}

/** A generated input, as JSON with long strings cut (for failure messages). */
export function describeInput(input: unknown): string {
  const text = JSON.stringify(input, (_k, v: unknown) => {
    if (typeof v === 'string' && v.length > 60) return `${v.slice(0, 40)}…(${v.length} chars)`;
    if (v instanceof Uint8Array) return `<${v.byteLength} bytes>`;
    if (Array.isArray(v) && v.length > 12) return [...(v.slice(0, 12) as unknown[]), `…(${v.length} items)`];
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const entries = Object.entries(v as Record<string, unknown>);
      if (entries.length > 24) return { ...Object.fromEntries(entries.slice(0, 24)), '…': `${entries.length} keys` };
    }
    return v;
  });
  return (text ?? String(input)).length > 1500 ? `${(text ?? '').slice(0, 1500)}…` : (text ?? String(input));
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/** Characters that break naive code: NUL, lone surrogates, RTL marks, emoji, BOM, separators, markup. */
const NASTY = [
  '\u0000',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\u202E',
  '\u200F',
  '\u0627\u0644',
  '\u05D0',
  '😀',
  '👨‍👩‍👧',
  '\uFEFF',
  '\u2028',
  '\u00A0',
  '\n',
  '\r',
  '\t',
  '\u000B',
  '%',
  '%00',
  '%0A',
  '%E0%A4%A',
  '"',
  '<',
  '>',
  '&',
  "'",
  '\\',
  '/',
  '=',
  ';',
  '+',
  ' ',
  '{',
  '}',
  '[',
  ']',
  'ｅ',
  'İ',
  'ß',
  '\u0301',
] as const;

/** Any UTF-16 code unit (lone surrogates and NUL included). */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));

/** One nasty character or any code unit. */
export const nastyChar = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: codeUnit },
);

/** True when a generated string contains a leak marker (it could be echoed back and read as a leak). */
export const hasMarker = (s: string): boolean => LEAKS.some(([, re]) => re.test(s));

/** Long strings, up to 200 KB, of one repeated unit (cheap to build). */
export const hugeText = fc
  .tuple(
    fc.constantFrom('x', 'é', '😀', '\uD800', '0', '/', ' ', '%2F', 'a@b.c'),
    fc.constantFrom(321, 513, 2_001, 5_000, 50_000, 200_000),
  )
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));

/** Short text of every kind: printable ASCII, nasty characters, graphemes. */
export const shortText: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 4, arbitrary: fc.string({ unit: nastyChar, maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  )
  .filter((s) => !hasMarker(s));

/** Text of every kind, sometimes huge (up to 200 KB). */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: shortText },
  { weight: 1, arbitrary: hugeText },
);

/** Header-safe text (printable ASCII): what a client can put in a cookie or header. */
export const headerText = fc.string({ maxLength: 60 }).filter((s) => !hasMarker(s));

/** Values of the wrong type where a string is expected: numbers, booleans, null, arrays, nested objects. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(anyText, { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), anyText, { maxKeys: 4 }),
  fc.object({ maxDepth: 3, maxKeys: 3 }),
);

/** A generated field value that means: leave the field out. */
export const MISSING = Symbol('missing');

/** Builds fields from generated values, dropping the ones generated as `MISSING`. */
export function present(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== MISSING));
}

/** `arb` in one of `n` inputs, else null. (fc.option's `freq` is the other way round: nil in 1 of `freq`.) */
export function rarely<T>(arb: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
}

/** A bad value for a field: text of any kind, a wrong type, or left out (`MISSING`). */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: anyText },
  { weight: 1, arbitrary: wrongType },
  { weight: 1, arbitrary: fc.constant(MISSING) },
);

/** Bad values for a few of `names`: usually none or one, so most inputs get past the first check. */
export function mutations(names: readonly string[]): fc.Arbitrary<Array<[string, unknown]>> {
  const one = fc.tuple(fc.constantFrom(...names), badValue);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant<Array<[string, unknown]>>([]) },
    { weight: 3, arbitrary: one.map((m) => [m]) },
    { weight: 1, arbitrary: fc.array(one, { minLength: 2, maxLength: 5 }) },
  );
}

/** `fields` with the mutations applied (values generated as `MISSING` removed). */
export function mutate(
  fields: Record<string, unknown>,
  muts: ReadonlyArray<readonly [string, unknown]>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  for (const [k, v] of muts) out[k] = v;
  return present(out);
}

/** Extra fields: usually none, sometimes a few, sometimes hundreds (names and values generated). */
export const extraFields: fc.Arbitrary<Record<string, string>> = fc
  .oneof(
    { weight: 6, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 12 }) },
    { weight: 1, arbitrary: fc.integer({ min: 200, max: 300 }) },
  )
  .chain((n) =>
    n === 0
      ? fc.constant({})
      : // hundreds of fields of up to 400 characters (huge values are anyText's job: 300 × 200 KB would only measure the machine)
        fc
          .tuple(
            fc.constantFrom('x', 'field', 'ü', 'data[]', 'a.b'),
            fc.oneof(fc.constant('v'), fc.constant('y'.repeat(400)), shortText),
          )
          .map(([prefix, value]) => {
            const out: Record<string, string> = {};
            for (let i = 0; i < n; i++) out[`${prefix}${i}`] = value;
            return out;
          }),
  );

/** Raw bodies that are not what the content type says: broken JSON, deep nesting, top-level scalars. */
export const rawBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"a":',
    'null',
    '[]',
    '"x"',
    '42',
    'true',
    '{"expoId":1308',
    '\u0000\u0000',
    'a=1&&&==&b',
    '--x\r\n\r\n',
  ),
  fc.integer({ min: 1, max: 60_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  anyText,
);

/** How a body is sent. */
export type BodyKind = 'json' | 'form' | 'multipart' | 'text' | 'text-json-param' | 'none' | 'garbage';
export const bodyKind: fc.Arbitrary<BodyKind> = fc.constantFrom(
  'json',
  'json',
  'json',
  'form',
  'form',
  'form',
  'multipart',
  'text',
  'text-json-param',
  'none',
  'garbage',
);

/** Accept headers: the island's JSON, a browser's HTML, none, or garbage. */
export const acceptHeader: fc.Arbitrary<string | null> = fc.oneof(
  fc.constantFrom('application/json', 'text/html,application/xhtml+xml,*/*;q=0.8', '*/*', null),
  headerText,
);

/** A request as generated: turned into a real Request by {@link toRequest}. */
export interface ReqSpec {
  method: string;
  path: string;
  kind: BodyKind;
  /** the content type for kind `garbage` */
  garbageType?: string | undefined;
  accept: string | null;
  fields: Record<string, unknown>;
  /** sent instead of the encoded fields when set */
  raw?: string | null | undefined;
  cookies?: Record<string, string> | undefined;
  headers?: Record<string, string> | undefined;
}

/** A field value as a form sends it. */
function formValues(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap((x) => (typeof x === 'string' ? [x] : [JSON.stringify(x) ?? '']));
  if (typeof v === 'object' && v !== null) return [JSON.stringify(v)];
  return [String(v)];
}

/** Turns a generated request into a Request for `app.request` (never throws for generated input). */
export function toRequest(spec: ReqSpec): Request {
  const headers = new Headers();
  if (spec.accept !== null) headers.set('accept', spec.accept);
  const cookie = Object.entries(spec.cookies ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  if (cookie) headers.set('cookie', cookie);
  for (const [k, v] of Object.entries(spec.headers ?? {})) headers.set(k, v);
  const init: RequestInit = { method: spec.method, headers, redirect: 'manual' };
  if (spec.method !== 'GET' && spec.method !== 'HEAD') {
    const json = spec.raw ?? JSON.stringify(spec.fields);
    const form = () => {
      if (spec.raw != null) return spec.raw;
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries(spec.fields)) for (const s of formValues(v)) p.append(k, s);
      return p.toString();
    };
    switch (spec.kind) {
      case 'json':
        headers.set('content-type', 'application/json');
        init.body = json;
        break;
      case 'form':
        headers.set('content-type', 'application/x-www-form-urlencoded');
        init.body = form();
        break;
      case 'multipart': {
        if (spec.raw != null) {
          headers.set('content-type', 'multipart/form-data; boundary=----fuzz');
          init.body = spec.raw;
        } else {
          const fd = new FormData();
          for (const [k, v] of Object.entries(spec.fields)) {
            // workerd refuses a multipart field name ending in a backslash (a client could not send one either)
            const name = k.endsWith('\\') ? `${k}_` : k;
            if (Array.isArray(v) && v.length > 2) fd.append(name, new Blob([JSON.stringify(v)]), 'x.bin');
            else for (const s of formValues(v)) fd.append(name, s);
          }
          init.body = fd;
        }
        break;
      }
      case 'text':
        headers.set('content-type', 'text/plain');
        init.body = json;
        break;
      case 'text-json-param':
        headers.set('content-type', 'text/plain; x=application/json');
        init.body = json;
        break;
      case 'none':
        headers.delete('content-type');
        init.body = utf8.encode(spec.raw ?? form());
        break;
      case 'garbage':
        headers.set('content-type', spec.garbageType ?? 'x/y');
        init.body = spec.raw ?? ((spec.garbageType?.length ?? 0) % 2 === 0 ? json : form());
        break;
    }
  }
  return new Request(`${ORIGIN}${spec.path}`, init);
}

// ---------------------------------------------------------------------------------------------
// Redirect targets
// ---------------------------------------------------------------------------------------------

/** Beginnings that make a "path" leave the site, or look like they might. */
const BACK_PREFIXES = [
  '//',
  '/\\',
  '\\\\',
  '\\/',
  '/.//',
  '/..//',
  '/./\\',
  '/%2f%2f',
  '/%2F/',
  '/%5C',
  '/%5c%5c',
  '/\t/',
  '/\n/',
  '/\r\n/',
  ' //',
  '\t//',
  '\n//',
  '///',
  '/\\/',
  '/./',
  '/x/../../',
  '/%2e%2e//',
  '/.%2e//',
  '//\u200B',
  '/\u3002/',
  '/\uFF0F/',
  '/\uFF3C',
  `${ORIGIN}//`,
  `${ORIGIN}/\\`,
  `${ORIGIN}/.//`,
  `${ORIGIN}/..//`,
  `${ORIGIN}/%2e//`,
  'http://expo.example//',
  'HTTPS://EXPO.EXAMPLE//',
  'https://expo.example:443//',
  'https://evil.com/',
  'https:evil.com/',
  'https:/evil.com/',
  'https:\\\\evil.com/',
  '//expo.example@',
  'https://expo.example@',
  'https://expo.example.evil.com/',
  'javascript:',
  'data:text/html,',
  'ftp://',
  '\u0000//',
  '/\u0000/',
] as const;
const BACK_HOSTS = [
  'evil.com',
  'evil.example',
  'ｅｖｉｌ.com',
  'evil.com%2F',
  '127.0.0.1',
  '[::1]',
  'xn--80ak6aa92e.com',
  '',
] as const;
const BACK_TAILS = [
  '',
  '/x',
  '/x?eid=1308&code=1',
  '?a=1',
  '#frag',
  '/\u0000',
  '/%0d%0aSet-Cookie:x=1',
  '/..',
  '/é',
] as const;

/** `back` values and Referer paths: tricky redirect targets, plain site paths, long and unicode ones. */
export const backValue: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('/IEAESearch/21308/MTMwOA/visitor', '/search/22001/MjAwMQ/visitor?f=1', '/', '/a?b=c#d'),
  },
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...BACK_PREFIXES),
        fc.constantFrom(...BACK_HOSTS),
        fc.constantFrom(...BACK_TAILS),
        fc.string({ unit: nastyChar, maxLength: 6 }),
      )
      .map(([p, h, t, x]) => `${p}${h}${t}${x}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...BACK_PREFIXES), fc.string({ unit: nastyChar, maxLength: 20 }))
      .map(([p, x]) => `${x}${p}${x}`),
  },
  { weight: 1, arbitrary: anyText },
  { weight: 1, arbitrary: fc.integer({ min: 400, max: 700 }).map((n) => `/${'a'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 200 }).map((n) => `/${'é'.repeat(n)}`) },
);

/**
 * One fuzz file's bookkeeping: quiets the console for the run, and at the end prints how many
 * inputs were generated and checks the file ran at least `minRuns`. Returns the maker of the
 * Findings that count toward it.
 */
export function fuzzFile(name: string, minRuns: number): () => Findings {
  const all: Findings[] = [];
  let started = 0;
  beforeAll(() => {
    started = Date.now();
    // The dev outbox logs every code sent; thousands of lines would only slow the run.
    captureConsole();
  });
  afterAll(() => {
    vi.restoreAllMocks();
    const runs = all.reduce((n, f) => n + f.runs, 0);
    console.info(`[${name}] ${runs} generated inputs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(runs).toBeGreaterThanOrEqual(minRuns);
  });
  return () => {
    const f = new Findings();
    all.push(f);
    return f;
  };
}
