// The steps a phone takes on the product, shared by the visitors and the attackers
// (scripts/rehearse.mjs): the lookup page, a code send, the outbox, a lookup, and reading each
// answer, JSON or a no-JS form post's 303 and flash cookie, into one outcome. The wire is the
// product's (src/lib/actions/lookup.ts): a send answers code 200 (sent), 601 with
// `data.challenge` and HTTP 429 (a challenge first), 600 with HTTP 429 or 503 (refused by a
// limit), or the organiser's refusal (any other code, HTTP 200).
import { hiddenFields, sleep } from './http.mjs';

/** An id as the site puts it in a path: base64url of the decimal ("1308" → "MTMwOA"). */
export const eid = (id) => Buffer.from(String(id)).toString('base64url');

/** The lookup pages the rehearsal uses (functions/reference/SEED.md), by expo: variant, url. */
export const LOOKUP_PAGES = {
  1308: `/IEAESearch/21308/${eid(1308)}/visitor`,
  1312: `/AsiaSearch/21312/${eid(1312)}/visitor`,
  1178: `/JakartaSearch/21178/${eid(1178)}/visitor`,
  1179: `/BangkokSearch/21179/${eid(1179)}/visitor`,
  1261: `/ThaiNewSearch/21261/${eid(1261)}/visitor`,
  /** expo 1308's exhibitor site: an e-mail looks up without a code (spec §2.2) */
  bypass: `/IEAESearch/10542/${eid(1308)}/visitor`,
};

/** The hidden fields of those pages, as the page would post them (used when a page could not be read). */
export function pageFields(expoId, urlId, variant, extra = {}) {
  return {
    expoId: String(expoId),
    urlId: String(urlId),
    ty: 'visitor',
    variant,
    list: '',
    f: '',
    define: '',
    back: `/${variant}Search/${urlId}/${eid(expoId)}/visitor`,
    next: '',
    ...extra,
  };
}

/** What kind of page a path is (the lookup's destinations, spec §2.1, §2.3). */
export function pageKind(path) {
  const p = new URL(path, 'http://x').pathname;
  if (/^\/[A-Za-z]*Success\//.test(p) || /^\/success\//.test(p)) return 'credential';
  if (/^\/ticketSuccess\//.test(p)) return 'ticketSuccess';
  if (/^\/ticket\//.test(p)) return 'ticketList';
  if (/List\//i.test(p)) return 'list';
  if (/Form\//.test(p) || /^\/form\//.test(p) || /Supplement\//.test(p)) return 'form';
  if (/Search\//.test(p) || /^\/search\//.test(p)) return 'lookup';
  return 'other';
}

/** The registration code in a credential path (`/IEAESuccess/{url}/{euCode}/{eid}/{fId}/`, base64url), or null. */
export function euCodeOf(path) {
  const seg = new URL(path, 'http://x').pathname.split('/').filter(Boolean)[2];
  if (!seg) return null;
  try {
    const code = Buffer.from(seg, 'base64url').toString('utf8');
    return /^[A-Za-z0-9]{6,64}$/.test(code) ? code : null;
  } catch {
    return null;
  }
}

/** The seconds a reply asks to wait: Retry-After, else a number of seconds or minutes in its message; null when it says none. */
export function waitOf(reply, { vars = null, key = '', msg = '' } = {}) {
  const ra = reply?.headers?.get('retry-after');
  if (ra && /^\d+$/.test(ra)) return Number(ra);
  if (vars && typeof vars.n === 'number') return /Minutes$/.test(key) ? vars.n * 60 : vars.n;
  const m = /(\d+)\s*(s\b|秒|sec|second|分钟|min)/i.exec(String(msg ?? ''));
  if (m) return /分钟|min/i.test(m[2] ?? '') ? Number(m[1]) * 60 : Number(m[1]);
  return null;
}

/**
 * An outcome every step answers: `ok` (with what it found), `challenge`, `refused` (a limit),
 * `upstream` (the organiser's refusal), `invalid` (a field the page refused), `failed` (a lookup
 * whose code was not accepted: `why` wrong | unbound | dead), `error` (no answer, 5xx, unreadable).
 * @typedef {{ kind: 'ok' | 'challenge' | 'refused' | 'upstream' | 'invalid' | 'failed' | 'nodata' | 'error', status: number,
 *   waitS?: number | null, key?: string | null, detail?: string, why?: string, location?: string, rows?: any[], ms: number }} Outcome
 */

/** A reply that is no answer at all (network, time-out, 5xx not from a limit, not what the wire says). */
function errorOf(r, what) {
  return {
    kind: 'error',
    status: r.status,
    detail: r.error ?? `${what}: HTTP ${r.status}${r.text ? ` ${r.text.slice(0, 120).replace(/\s+/g, ' ')}` : ''}`,
    ms: r.ms,
  };
}

/** Reads a JSON reply of the edge's envelope `{code, msg, data}` common to every action. */
function readEnvelope(r, what) {
  if (r.status === 0) return errorOf(r, what);
  const b = r.body;
  if (!b || typeof b.code !== 'number') return errorOf(r, what);
  if (b.code === 601)
    return {
      kind: 'challenge',
      status: r.status,
      waitS: b.data?.challenge?.waitS ?? waitOf(r),
      detail: b.msg ?? '',
      ms: r.ms,
    };
  if (b.code === 600 && (r.status === 429 || r.status === 503))
    return { kind: 'refused', status: r.status, waitS: waitOf(r, { msg: b.msg }), detail: b.msg ?? '', ms: r.ms };
  if (r.status >= 500) return errorOf(r, what);
  return null;
}

/** Reads a no-JS post's flash notice (after its 303): null when it has none. */
function readFlashNotice(phone, r) {
  const flash = phone.flash();
  const notice = flash?.notice ?? null;
  const key = notice?.key ?? '';
  if (!notice) return { flash, outcome: null };
  if (key === 'limit.challengeWait' || key === 'limit.challenge')
    return {
      flash,
      outcome: { kind: 'challenge', status: r.status, waitS: waitOf(r, { vars: notice.vars, key }), key, ms: r.ms },
    };
  if (key.startsWith('limit.'))
    return {
      flash,
      outcome: { kind: 'refused', status: r.status, waitS: waitOf(r, { vars: notice.vars, key }), key, ms: r.ms },
    };
  return { flash, outcome: null, key, notice };
}

/** Follows a no-JS post's 303 back to its page, as the browser does (the page shows the flash and clears it). */
async function followBack(phone, r) {
  if (r.status === 303 && r.location) await phone.get(r.location);
}

/** GET a page, following up to 3 redirects on the product; the last reply. */
export async function getPage(phone, path) {
  let r = await phone.get(path);
  for (let i = 0; i < 3 && r.status >= 300 && r.status < 400 && r.location; i++) r = await phone.get(r.location);
  return r;
}

/** Opens a lookup page and reads its form's hidden fields (the fallback `fields` when it cannot be read). */
export async function openLookup(phone, path, fallback) {
  const r = await getPage(phone, path);
  const found = r.status === 200 ? hiddenFields(r.text, { needs: 'expoId' }) : {};
  return { reply: r, fields: found.expoId ? found : fallback };
}

/** POST /api/send-code, JSON or as a form; the outcome. */
export async function sendCode(phone, mode, fields, typed, extra = {}) {
  const body = { ...fields, ...typed, ...extra };
  const r =
    mode === 'json'
      ? await phone.post('/api/send-code', { json: body })
      : await phone.post('/api/send-code', { form: body });
  if (mode === 'json') {
    const e = readEnvelope(r, 'send-code');
    if (e) return e;
    const b = r.body;
    if (b.code === 200) return { kind: 'ok', status: r.status, ms: r.ms };
    if (b.data && typeof b.data === 'object' && 'field' in b.data)
      return { kind: 'invalid', status: r.status, detail: `${b.data.field}: ${b.data.message ?? b.msg}`, ms: r.ms };
    return {
      kind: 'upstream',
      status: r.status,
      waitS: waitOf(r, { msg: b.msg }),
      detail: `${b.code} ${b.msg ?? ''}`,
      ms: r.ms,
    };
  }
  if (r.status !== 303)
    return r.status === 429 || r.status === 503
      ? { kind: 'refused', status: r.status, waitS: waitOf(r), detail: `HTTP ${r.status}`, ms: r.ms }
      : errorOf(r, 'send-code');
  const { flash, outcome, key, notice } = readFlashNotice(phone, r);
  await followBack(phone, r);
  if (outcome) return outcome;
  if (key === 'search.codeSentTo') return { kind: 'ok', status: r.status, ms: r.ms };
  if (flash?.error)
    return {
      kind: 'invalid',
      status: r.status,
      key: flash.error.key,
      detail: `${flash.error.field}: ${flash.error.key ?? flash.error.text}`,
      ms: r.ms,
    };
  if (notice)
    return {
      kind: 'upstream',
      status: r.status,
      key,
      waitS: waitOf(r, { vars: notice.vars, key, msg: notice.text }),
      detail: key || notice.text || '',
      ms: r.ms,
    };
  return errorOf(r, 'send-code (303 without a notice)');
}

/**
 * POST /api/lookup; the outcome: `ok` with `location` (navigate) or `rows` (a list to choose
 * from, JSON), `failed` (why: wrong | unbound | dead), `nodata`, `prove` (the bypass site asks
 * for a code from now on), `refused`, `invalid`, `error`.
 */
export async function lookup(phone, mode, fields, typed, code) {
  const body = { ...fields, ...typed, code };
  const r =
    mode === 'json' ? await phone.post('/api/lookup', { json: body }) : await phone.post('/api/lookup', { form: body });
  if (mode === 'json') {
    const e = readEnvelope(r, 'lookup');
    if (e) return e;
    const d = r.body.data;
    if (!d || typeof d !== 'object')
      return {
        kind: r.body.code === 200 ? 'error' : 'upstream',
        status: r.status,
        detail: `${r.body.code} ${r.body.msg ?? ''}`,
        ms: r.ms,
      };
    // back to the page itself: the bypass site asks this browser for a code (the e-mail's code-less lookups are spent)
    if (d.outcome === 'navigate' && typeof d.location === 'string' && fields.back && new URL(d.location, 'http://x').pathname === new URL(fields.back, 'http://x').pathname)
      return { kind: 'prove', status: r.status, ms: r.ms };
    if (d.outcome === 'navigate' && typeof d.location === 'string')
      return { kind: 'ok', status: r.status, location: d.location, ms: r.ms };
    if (d.outcome === 'select' && Array.isArray(d.rows))
      return { kind: 'ok', status: r.status, rows: d.rows, ms: r.ms };
    if (d.outcome === 'nodata') return { kind: 'nodata', status: r.status, detail: d.message ?? '', ms: r.ms };
    if (d.outcome === 'invalid')
      return { kind: 'invalid', status: r.status, detail: `${d.field}: ${d.message}`, ms: r.ms };
    // failed: no message = a wrong code with tries left (spec §8); with one, the code can no longer work or was asked elsewhere
    if (d.outcome === 'failed')
      return {
        kind: 'failed',
        status: r.status,
        why: d.message ? (d.newCode ? 'dead' : 'refused') : 'wrong',
        detail: d.message ?? '',
        ms: r.ms,
      };
    return errorOf(r, 'lookup');
  }
  if (r.status !== 303)
    return r.status === 429 || r.status === 503
      ? { kind: 'refused', status: r.status, waitS: waitOf(r), detail: `HTTP ${r.status}`, ms: r.ms }
      : errorOf(r, 'lookup');
  const back = new URL(fields.back || '/', 'http://x').pathname;
  const to = r.location ? new URL(r.location, 'http://x').pathname : '';
  if (r.location && to !== back) {
    // the lookup went on: the page it sent the visitor to (the flash, if any, is that page's)
    return { kind: 'ok', status: r.status, location: r.location, ms: r.ms };
  }
  const { flash, outcome, key } = readFlashNotice(phone, r);
  await followBack(phone, r);
  if (outcome) return outcome;
  if (key === 'search.nodata') return { kind: 'nodata', status: r.status, ms: r.ms };
  if (key === 'search.bypassProve') return { kind: 'prove', status: r.status, key, ms: r.ms };
  const err = flash?.error;
  if (err && err.field === 'code') {
    if (err.key === 'limit.otherBrowser')
      return { kind: 'failed', status: r.status, why: 'unbound', key: err.key, ms: r.ms };
    if (err.key) return { kind: 'failed', status: r.status, why: 'dead', key: err.key, ms: r.ms };
    return { kind: 'failed', status: r.status, why: 'wrong', ms: r.ms };
  }
  if (err)
    return {
      kind: 'invalid',
      status: r.status,
      key: err.key,
      detail: `${err.field}: ${err.key ?? err.text}`,
      ms: r.ms,
    };
  return errorOf(r, 'lookup (303 back without an answer)');
}

/**
 * The newest code the organiser's development outbox holds for a contact on an expo, sent at
 * `sinceMs` or later (the simulated SMS or e-mail arriving): polled for up to 15 s; null when none came.
 */
export async function outboxCode(upstream, contactKey, expoId, sinceMs) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${upstream}/dev/outbox.json?to=${encodeURIComponent(contactKey)}&expoId=${expoId}`, {
        signal: AbortSignal.timeout(10_000),
      });
      const body = await res.json().catch(() => null);
      if (res.ok && body && typeof body.code === 'string' && Date.parse(body.createdAt ?? '') >= sinceMs - 2000)
        return body.code;
    } catch {
      /* the organiser's server is busy: try again */
    }
    await sleep(500);
  }
  return null;
}

/** A wrong code of the same shape as `code` (one digit changed). */
export function wrongCode(code, r) {
  const s = String(code ?? '000000');
  const i = r.int(0, s.length - 1);
  const d = (Number(s[i]) + r.int(1, 9)) % 10;
  return `${s.slice(0, i)}${d}${s.slice(i + 1)}`;
}
