// The rehearsal's phones (scripts/rehearse.mjs): plain fetch with a cookie jar per phone and
// origin, every request to the product carrying the phone's address in `CF-Connecting-IP` (as
// Cloudflare would), an `Origin` on posts (the edge refuses cross-site posts), a mobile user
// agent, and a time-out. No request ever throws: a reply that could not be had is
// `{ status: 0, error }`, so every actor reads every reply the same defensive way.
// Node built-ins only.

/** A request that takes longer than this is given up (the phone's user would have too). */
export const REQUEST_TIMEOUT_MS = 60_000;

/** The flash cookie (src/lib/page/flash.ts FLASH_COOKIE): what a no-JS post carries back to its page. */
export const FLASH_COOKIE = 'flash';

/** One cookie as a browser keeps it (name, value, the path it is sent under). */
/** @typedef {{ value: string, path: string }} Cookie */

/**
 * The parsed answer to one request. `body` is the JSON body (null when not JSON), `text` the raw
 * body (cut to 200 KB), `location` the Location header, `ms` from sending to the last byte.
 * @typedef {{ status: number, ok: boolean, headers: Headers | null, text: string, body: any, location: string | null,
 *   ms: number, url: string, error: string | null }} Reply
 */

/** base64url JSON (the flash cookie's encoding, src/lib/util/base64url.ts), or null. */
export function decodeBase64urlJson(value) {
  if (typeof value !== 'string' || value === '') return null;
  try {
    return JSON.parse(Buffer.from(decodeURIComponent(value), 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

/** Attribute `name` of one HTML tag, unescaped; null when absent. */
function attr(tag, name) {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  if (!m) return null;
  return unescapeHtml(m[2] ?? m[3] ?? m[4] ?? '');
}

/** The few entities Astro writes into attribute values. */
export function unescapeHtml(s) {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x2F;|&#47;/g, '/')
    .replace(/&amp;/g, '&');
}

/**
 * The hidden inputs of the first form of `html` whose opening tag matches `formMatch` (a RegExp
 * tested on the `<form …>` tag), else of the first form holding an input named `needs`; `{}` when
 * none is found. As a browser would post them: first value of a name wins.
 */
export function hiddenFields(html, { formMatch = null, needs = null } = {}) {
  const forms = [...html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/gi)].map((m) => m[0]);
  const form =
    forms.find((f) => formMatch && formMatch.test(f.slice(0, f.indexOf('>') + 1))) ??
    forms.find((f) => needs && new RegExp(`name=["']${needs}["']`).test(f)) ??
    null;
  if (!form) return {};
  const out = {};
  for (const m of form.matchAll(/<input\b[^>]*>/gi)) {
    const tag = m[0];
    if ((attr(tag, 'type') ?? '').toLowerCase() !== 'hidden') continue;
    const name = attr(tag, 'name');
    if (name && !(name in out)) out[name] = attr(tag, 'value') ?? '';
  }
  return out;
}

/** Every `href` or `src` of `html` that matches `re` (unescaped), in page order. */
export function links(html, re) {
  const out = [];
  for (const m of html.matchAll(/\s(?:href|src)\s*=\s*"([^"]*)"/gi)) {
    const v = unescapeHtml(m[1] ?? '');
    if (re.test(v)) out.push(v);
  }
  return out;
}

/**
 * One simulated phone: a browser's cookies for each origin it visits, one client address, one
 * user agent. `request` never throws.
 */
export class Phone {
  /**
   * @param {{ ip: string, ua?: string, lang?: string, product: string }} opts `product`: the
   *   product's origin (requests there carry CF-Connecting-IP and, on a post, Origin)
   */
  constructor({ ip, ua, lang, product, timings = null }) {
    this.ip = ip;
    this.ua =
      ua ??
      'Mozilla/5.0 (Linux; Android 14; Phone) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
    this.lang = lang ?? 'zh-CN,zh;q=0.9,en;q=0.6';
    this.product = new URL(product).origin;
    /** @type {Map<string, Map<string, Cookie>>} origin → name → cookie */
    this.jars = new Map();
    this.requests = 0;
    /** milliseconds spent waiting for replies, all requests together */
    this.waitMs = 0;
    /** where each reply's time goes, by kind of request (`timings.add(kind, ms, status)`), if anywhere */
    this.timings = timings;
  }

  /** The cookies of `origin` (a map name → value), for reading. */
  cookies(origin = this.product) {
    return new Map([...(this.jars.get(origin) ?? new Map())].map(([k, c]) => [k, c.value]));
  }

  /** Drops every cookie of the product but `keep` (a script that clears what it does not need). */
  dropCookies(keep = []) {
    const jar = this.jars.get(this.product);
    if (!jar) return;
    for (const name of [...jar.keys()]) if (!keep.includes(name)) jar.delete(name);
  }

  /** The Cookie header for `url`. */
  cookieHeader(url) {
    const jar = this.jars.get(url.origin);
    if (!jar) return '';
    return [...jar]
      .filter(
        ([, c]) =>
          url.pathname === c.path ||
          url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) ||
          c.path === '/',
      )
      .map(([n, c]) => `${n}=${c.value}`)
      .join('; ');
  }

  /** Stores a reply's Set-Cookie lines (an empty value, Max-Age=0 or a past Expires removes). */
  store(url, headers) {
    const lines = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [];
    if (lines.length === 0) return;
    let jar = this.jars.get(url.origin);
    if (!jar) this.jars.set(url.origin, (jar = new Map()));
    for (const line of lines) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let path = '/';
      let gone = value === '';
      for (const a of attrs) {
        const [k = '', v = ''] = a.split('=').map((s) => s.trim());
        const key = k.toLowerCase();
        if (key === 'path' && v.startsWith('/')) path = v;
        if (key === 'max-age' && Number(v) <= 0) gone = true;
        if (key === 'expires' && Date.parse(v) < Date.now()) gone = true;
      }
      if (gone) jar.delete(name);
      else jar.set(name, { value, path });
    }
  }

  /**
   * One request, never throwing. `json` posts JSON as the islands do (accept JSON too), `form`
   * posts `application/x-www-form-urlencoded` as a page without JavaScript does. Redirects are not
   * followed (the actors follow them as a browser would, to read each step).
   * @param {string} method
   * @param {string} href absolute, or a path on the product
   * @param {{ json?: object, form?: Record<string, string>, headers?: Record<string, string>, timeoutMs?: number, accept?: string }} [opts]
   * @returns {Promise<Reply>}
   */
  async request(method, href, opts = {}) {
    const url = new URL(href, this.product);
    const headers = { 'user-agent': this.ua, 'accept-language': this.lang, ...(opts.headers ?? {}) };
    if (url.origin === this.product) headers['cf-connecting-ip'] = this.ip;
    const cookie = this.cookieHeader(url);
    if (cookie) headers['cookie'] = cookie;
    let body;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      headers['accept'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['accept'] ??= 'text/html,application/xhtml+xml';
      body = new URLSearchParams(opts.form).toString();
    } else {
      headers['accept'] ??= opts.accept ?? 'text/html,application/xhtml+xml,*/*;q=0.8';
    }
    if (method !== 'GET' && method !== 'HEAD') headers['origin'] = url.origin;
    this.requests++;
    const t0 = performance.now();
    try {
      const res = await fetch(url, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
      });
      this.store(url, res.headers);
      const buf = Buffer.from(await res.arrayBuffer());
      const ms = performance.now() - t0;
      this.waitMs += ms;
      this.timings?.add(requestKind(method, url, this.product), ms, res.status);
      const text = (res.headers.get('content-type') ?? '').startsWith('image/')
        ? ''
        : buf.subarray(0, 200_000).toString('utf8');
      let parsed = null;
      if ((res.headers.get('content-type') ?? '').includes('json')) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
      }
      return {
        status: res.status,
        ok: res.ok,
        headers: res.headers,
        text,
        body: parsed,
        location: res.headers.get('location'),
        ms,
        url: url.href,
        error: null,
      };
    } catch (e) {
      const ms = performance.now() - t0;
      this.waitMs += ms;
      this.timings?.add(requestKind(method, url, this.product), ms, 0);
      const error =
        e?.name === 'TimeoutError' || e?.name === 'AbortError'
          ? `time-out after ${Math.round(ms / 1000)} s`
          : `network: ${e?.cause?.code ?? e?.message ?? e}`;
      return { status: 0, ok: false, headers: null, text: '', body: null, location: null, ms, url: url.href, error };
    }
  }

  get(href, opts) {
    return this.request('GET', href, opts);
  }

  post(href, opts) {
    return this.request('POST', href, opts);
  }

  /** The flash a no-JS post's 303 set (decoded), or null. */
  flash() {
    return decodeBase64urlJson(this.jars.get(this.product)?.get(FLASH_COOKIE)?.value ?? null);
  }
}

/** A request named by what it asks for (the reply-time table of docs/rehearsal.md). */
export function requestKind(method, url, product) {
  const p = url.pathname;
  if (url.origin !== product) return `${method} cashier (organiser)`;
  if (p.startsWith('/api/')) return `${method} ${p.replace(/^\/api\//, '/api/')}`;
  if (p.startsWith('/qr/')) return `${method} QR image`;
  if (/^\/[A-Za-z]*Success\//.test(p) || p.startsWith('/success/')) return `${method} credential page`;
  if (p.startsWith('/ticketSuccess/')) return `${method} paid order page`;
  if (p.startsWith('/ticketForm/')) return `${method} ticket form`;
  if (p.startsWith('/ticket/')) return `${method} ticket list`;
  if (p.startsWith('/gate/')) return `${method} gate link`;
  if (/Form\//.test(p) || p.startsWith('/form/')) return `${method} registration form`;
  if (/List\//i.test(p)) return `${method} list page`;
  if (/Search\//.test(p) || p.startsWith('/search/')) return `${method} lookup page`;
  return `${method} other page`;
}

/** Reply times by kind of request: `add(kind, ms, status)`, `rows()` with n, p50, p95, max and the statuses. */
export class Timings {
  constructor() {
    /** @type {Map<string, { ms: number[], statuses: Record<string, number> }>} */
    this.by = new Map();
  }

  add(kind, ms, status) {
    let t = this.by.get(kind);
    if (!t) this.by.set(kind, (t = { ms: [], statuses: {} }));
    t.ms.push(ms);
    t.statuses[status] = (t.statuses[status] ?? 0) + 1;
  }

  rows() {
    const pct = (sorted, p) =>
      sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
    return [...this.by]
      .map(([kind, t]) => {
        const sorted = [...t.ms].sort((a, b) => a - b);
        return {
          kind,
          n: sorted.length,
          p50Ms: Math.round(pct(sorted, 50)),
          p95Ms: Math.round(pct(sorted, 95)),
          maxMs: Math.round(sorted.at(-1)),
          statuses: t.statuses,
        };
      })
      .sort((a, b) => b.n - a.n);
  }
}

/** Resolves after `ms` (0 or less: at once). */
export function sleep(ms) {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)));
}
