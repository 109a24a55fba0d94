/**
 * A fake organiser API for tests that set `UPSTREAM_URL` (api-faults, fuzz-redirect's guard):
 * the global `fetch` is replaced for the test (functions/upstream resolves `fetch` at call time),
 * and every call of docs/upstream.md is answered by a local function: normally (a valid envelope,
 * data encrypted with the fake's own aesKey), or with the fault the test picks for that call.
 */
import { vi } from 'vitest';
import { encryptJson } from '../../src/lib/contract/aes';

/** The fake's API root (UPSTREAM_URL). `.test` (RFC 2606) never resolves: nothing leaves the machine. */
export const FAKE_BASE = 'https://upstream.test';
/** The aesKey the fake's selectAESKey gives. */
export const FAKE_KEY = 'fakeUpstreamKey1';
/** Another 16-character key: data encrypted with it is "encrypted garbage" for FAKE_KEY. */
const WRONG_KEY = 'wrongWrongKey123';

/** How one call is answered. */
export type Fault =
  /** a valid reply */
  | 'ok'
  /** HTTP 500 (its body a stack trace of the upstream's own, which must not reach the visitor) */
  | 'http-500'
  /** HTTP 404, 405 and 403 (spec §8: each has its own toast; 403 is silent) */
  | 'http-404'
  | 'http-405'
  | 'http-403'
  /** no reply until the client gives up (UPSTREAM_TIMEOUT_MS) */
  | 'hang'
  /** HTTP 200 with an HTML error page */
  | 'not-json'
  /** `{code: 200, data: <AES of another key>}` */
  | 'garbage'
  /** fetch throws TypeError('Network connection lost'), as on a closed socket */
  | 'network'
  /** `{code: 600, msg: <5,000 characters>}` */
  | 'refusal';

/** A refusal message far longer than anything a page can show (5,000 characters of words). */
export const LONG_MSG = 'Too many verification requests from this contact today; please wait and try again later. '
  .repeat(60)
  .slice(0, 5_000);

export interface FakeUpstreamOptions {
  /** the fault of a call, by its path (e.g. `/custom/customFrom/getCustomerId`); default 'ok' */
  fault?: (path: string) => Fault;
  /** getCustomerId's form config (plain; the fake encrypts it) */
  config?: unknown;
  /** /wx/getOpenId's `data` (the guard's silent login) */
  openId?: unknown;
  /** the lookups' registration records (plain; the fake encrypts them); default none */
  records?: unknown[];
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The normal answer of a call. */
async function normal(path: string, opts: FakeUpstreamOptions): Promise<Response> {
  const ok = (data: unknown) => json({ code: 200, msg: 'success', data });
  if (path.endsWith('/CustomerUserInfo/selectAESKey')) return ok({ aesKey: FAKE_KEY });
  if (path.endsWith('/customFrom/getCustomerId'))
    return ok(await encryptJson(opts.config ?? { customerForm: [] }, FAKE_KEY));
  if (path.endsWith('/sms/captchaVerify')) return ok(null);
  if (path.includes('/sms/')) return ok(null);
  if (path.endsWith('/customFrom/queryEmailUserExpoId') || path.endsWith('/customFrom/queryUserExpoId'))
    return ok(await encryptJson(opts.records ?? [], FAKE_KEY));
  if (path.endsWith('/CustomerUserInfo/addUserInfo')) return ok({ euCode: 'FAKEEUCODE000001', id: 1 });
  if (path.endsWith('/CustomerUserInfo/camera5')) return ok({ success: false });
  if (path.endsWith('/wx/getwxAppId')) return ok('wxfakeappid');
  if (path.endsWith('/wx/getOpenId')) return ok(opts.openId ?? { openId: null });
  return json({ code: 404, msg: 'unknown call', data: null });
}

/** A reply that never comes: rejects when the client aborts (or after 2 s, so nothing dangles). */
function hang(signal: AbortSignal | null | undefined): Promise<Response> {
  return new Promise<Response>((_, reject) => {
    const safety = setTimeout(() => reject(new Error('fake upstream: hung call given up')), 2_000);
    signal?.addEventListener('abort', () => {
      clearTimeout(safety);
      reject(new DOMException('The operation was aborted', 'AbortError'));
    });
  });
}

/**
 * Replaces the global fetch with the fake until `restore()`; `calls` lists the paths asked for.
 * Requests to any other host fail, as unmocked network should (STYLE.md §6).
 */
export function installFakeUpstream(opts: FakeUpstreamOptions = {}): { calls: string[]; restore: () => void } {
  const calls: string[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const url = new URL(req.url);
    if (url.origin !== FAKE_BASE) throw new TypeError(`unmocked network: ${url.origin}`);
    calls.push(url.pathname);
    const fault = url.pathname.endsWith('/selectAESKey') ? 'ok' : (opts.fault?.(url.pathname) ?? 'ok');
    switch (fault) {
      case 'ok':
        return normal(url.pathname, opts);
      case 'http-500':
        return new Response('Internal Server Error\n    at Dispatcher.handle (/srv/upstream/app.js:12:7)', {
          status: 500,
          statusText: 'Internal Server Error',
        });
      case 'http-404':
        return new Response('no such method at /srv/upstream', { status: 404, statusText: 'Not Found' });
      case 'http-405':
        return new Response('method not allowed', { status: 405, statusText: 'Method Not Allowed' });
      case 'http-403':
        return new Response('forbidden', { status: 403, statusText: 'Forbidden' });
      case 'hang':
        return hang(req.signal);
      case 'not-json':
        return new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', {
          status: 200,
          headers: { 'content-type': 'text/html' },
        });
      case 'garbage':
        return json({
          code: 200,
          msg: 'success',
          data: await encryptJson({ customerForm: [], records: [] }, WRONG_KEY),
        });
      case 'network':
        throw new TypeError('Network connection lost');
      case 'refusal':
        return json({ code: 600, msg: LONG_MSG, data: null });
    }
  });
  return { calls, restore: () => spy.mockRestore() };
}
