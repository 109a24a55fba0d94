/**
 * The lookup endpoints (spec §2.1, §4, §5, §8): `POST /api/send-code` and `POST /api/lookup`.
 * Both take JSON from the island or a plain form post; a form post is answered `303` back to
 * the page (values kept in the flash cookie, message shown) or on to the next page.
 */
import { Hono, type Context } from 'hono';
import { getCookie, setCookie, deleteCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { upstreamFor, type Contact } from '../upstream';
import { faultJson, upstreamFault } from './fault';
import type { Registration } from '../upstream/contract';
import { readInput, type Input } from './input';
import { badRequest } from './bad-request';
import { encodeFlash, FLASH_COOKIE, FLASH_MAX_AGE_S, FLASH_MAX_PATH, type FlashInput } from '../../src/lib/page/flash';
import { CONTACT_COOKIE, CONTACT_COOKIE_MAX_AGE_S, MAX_CODES, signContact, type ListEntry, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { safeBackPath } from '../../src/lib/util/safe-redirect';
import { validateLookup, validateSendCode, parseCheckType } from '../../src/lib/lookup/validation';
import { variantByName, type Variant } from '../../src/lib/expo/variants';
import { bypassOutcome, decideOutcome, foundCodes, successPath, type Outcome } from '../../src/lib/lookup/lookup';
import { registrationLabel } from '../../src/lib/page/labels';
import { fullPhone } from '../../src/lib/form/phone';
import { routePath } from '../../src/lib/page/routes';
import { encodeSentTo, resendWaitS, SENT_COOKIE, SENT_TO_COOKIE, SENT_TO_MAX_AGE_S, RESEND_S } from '../../src/lib/lookup/resend';
import { readRefusal, refusalText, type RefusalView } from '../../src/lib/page/upstream-message';
import { usesBypass } from '../../src/lib/lookup/page';
import { isTicketNext } from '../../src/lib/tickets/paths';
import { isFormNext } from '../../src/lib/form/page';
import type { LookupOutcome, LookupReply, SendCodeReply } from '../../src/islands/lookup-types';
import { challengeOf, checkLookupLimits, checkSendLimits, limitedReply } from '../limits'; // abuse limits
import { contactKey, phoneDestination } from '../../src/lib/security/limits';
import { BIND_COOKIE, BIND_MAX_AGE_S, bindingMatches, newNonce, readBinding, signBinding, TICKET_COOKIE } from '../../src/lib/security/friction';

type Ctx = Context<{ Bindings: AppEnv }>;

const decimal = z.string().trim().regex(/^\d{1,12}$/, 'a positive decimal').transform(Number).pipe(z.number().int().positive());

/** The hidden fields every lookup form posts (DESIGN.md: ids as plain decimals). */
const Page = z.object({
  expoId: decimal,
  urlId: decimal,
  ty: z.string().trim().regex(/^[A-Za-z0-9_-]{0,32}$/, 'a short word').default(''),
  variant: z.string().trim().max(40).default(''),
  // Hidden fields a visitor cannot have typed: cut or dropped when over-long, never a refusal
  // that would lose what the visitor did type.
  f: z.string().default('').transform((s) => s.slice(0, 200)),
  back: z.string().default('').transform((s) => (s.length > FLASH_MAX_PATH ? '' : s)),
  // A purchase page to return to once verified (spec §4 guard): kept only when it is one of this expo's.
  next: z.string().default('').transform((s) => s.slice(0, 300)),
});
type Page = z.infer<typeof Page>;

/**
 * What the visitor typed. Only cut to a sane size here: src/lib/lookup/validation.ts judges the
 * values and names the field (an over-long e-mail is an e-mail error, not a broken request).
 */
const typed = z.string().default('').transform((s) => s.slice(0, 320));
const Typed = z.object({
  checkType: typed,
  areaCode: typed,
  phone: typed,
  email: typed,
  code: typed,
  // The Turnstile widget's token, present only once a challenge was asked.
  'cf-turnstile-response': z.string().default('').transform((s) => s.slice(0, 2048)),
});

interface Request_ {
  input: Input;
  page: Page;
  variant: Variant | null;
  /** where a no-JS post comes back to */
  back: string;
  typed: z.infer<typeof Typed>;
}

/** Parses the common part of both endpoints; a bad hidden field is a broken page, answered 400. */
async function parse(c: Ctx): Promise<Request_ | Response> {
  const input = await readInput(c);
  const page = Page.safeParse(input.fields);
  // the visitor typed none of these; a short sentence, never the schema's words.
  const broken = () => badRequest(c, input, input.t('api.badPage'), input.t('app.back'), input.fields['back']);
  if (!page.success) return broken();
  const variant = page.data.variant ? variantByName(page.data.variant) : null;
  if (page.data.variant && !variant) return broken();
  const origin = new URL(c.req.url).origin;
  const own = routePath({ screen: 'search', variant, params: { fId: page.data.urlId, expoId: page.data.expoId, ty: page.data.ty } });
  const posted = safeBackPath(page.data.back, origin);
  // A back path the flash cannot belong to would lose what was typed: use the page's own.
  const back = posted !== null && posted.length <= FLASH_MAX_PATH ? posted : own;
  return { input, page: page.data, variant, back, typed: Typed.parse(input.fields) };
}

/** The values a no-JS page refills (the code too: nothing typed is lost). */
function keptValues(r: Request_): Record<string, string> {
  const { checkType, areaCode, phone, email, code } = r.typed;
  return { checkType, areaCode, phone, email, code };
}

function flashBack(c: Ctx, r: Request_, flash: Omit<FlashInput, 'path' | 'values'>): Response {
  const secure = new URL(c.req.url).protocol === 'https:';
  setCookie(c, FLASH_COOKIE, encodeFlash({ path: r.back, values: keptValues(r), ...flash }), {
    path: '/',
    maxAge: FLASH_MAX_AGE_S,
    httpOnly: true,
    sameSite: 'Lax',
    secure,
  });
  return c.redirect(r.back, 303);
}

function contactOf(checkType: 1 | 2, v: { areaCode: string; phone: string; email: string }): Contact {
  return checkType === 1 ? { type: 'phone', areaCode: v.areaCode, national: v.phone } : { type: 'email', email: v.email };
}

/** An upstream fault as the visitor sees it (spec §8, ./fault.ts): JSON, or back to the page with every value. */
function faultReply(c: Ctx, r: Request_, e: unknown): Response {
  const fault = upstreamFault(e, r.input.t, new URL(c.req.url).pathname);
  return r.input.json ? faultJson(c, fault) : flashBack(c, r, { notice: fault.notice });
}

/** A mode the page does not offer (e.g. phone on an e-mail-only event) is a hand-made request. */
function modeRefused(c: Ctx, r: Request_, checkType: 1 | 2): Response | null {
  if (!r.variant || r.variant.modes.offered.includes(checkType === 1 ? 'phone' : 'email')) return null;
  const msg = r.input.t(checkType === 1 ? 'api.emailOnly' : 'api.phoneOnly');
  return badRequest(c, r.input, msg, r.input.t('app.back'), r.back);
}

export const lookup = new Hono<{ Bindings: AppEnv }>();

lookup.post('/send-code', async (c) => {
  const r = await parse(c);
  if (r instanceof Response) return r;
  const { t, json, lang } = r.input;
  const checkType = parseCheckType(r.typed.checkType);
  const refused = modeRefused(c, r, checkType);
  if (refused) return refused;
  const valid = validateSendCode({ checkType, areaCode: r.typed.areaCode, phone: r.typed.phone, email: r.typed.email });
  if (!valid.ok) {
    const message = t(valid.key);
    if (json) return c.json<SendCodeReply>({ code: 400, msg: message, data: { field: valid.field, message } });
    return flashBack(c, r, { error: { field: valid.field, key: valid.key, text: null } });
  }
  if (usesBypass(r.variant, r.page.expoId, r.page.urlId, checkType)) {
    // The button is not shown on this path; a hand-made post gets a clear answer, and no code.
    const msg = t('search.otherError');
    return json ? c.json<SendCodeReply>({ code: 400, msg, data: null }) : flashBack(c, r, { notice: { tone: 'error', key: 'search.otherError', text: null } });
  }
  // spec §4: one code per 60 s; the server remembers when the last one was sent (survives a reload).
  const wait = resendWaitS(getCookie(c, SENT_COOKIE), Date.now());
  if (wait > 0) {
    const msg = t('search.waitResend', { n: wait });
    if (json) return c.json<SendCodeReply>({ code: 600, msg, data: null });
    return flashBack(c, r, { notice: { tone: 'error', key: 'search.waitResend', vars: { n: wait }, text: null } });
  }
  const v = valid.value;
  const contact = contactOf(checkType, v);
  // only a calling code the form offers, read from the whole number (`+4` `47…` is +44).
  if (contact.type === 'phone' && !phoneDestination(contact.areaCode, contact.national)) {
    const message = t('limit.unknownCountry');
    if (json) return c.json<SendCodeReply>({ code: 400, msg: message, data: { field: 'areaCode', message } });
    return flashBack(c, r, { error: { field: 'areaCode', key: 'limit.unknownCountry', text: null } });
  }
  // a browser the contact's last code went to has a send budget of its own.
  const secret = c.env.SESSION_SECRET ?? '';
  const key = contactKey(contact);
  const binding = await readBinding(getCookie(c, BIND_COOKIE), secret);
  const own = bindingMatches(binding, key, r.page.expoId) ? binding : null;
  // abuse limits (functions/limits): counted at the edge before the upstream sends anything.
  const checked = await checkSendLimits(c, {
    expoId: r.page.expoId,
    contact,
    ownNonce: own?.n ?? null,
    token: r.typed['cf-turnstile-response'],
  });
  if (checked.kind === 'refused') return limitedReply(c, checked.refusal, r.input, (notice) => flashBack(c, r, { notice }));
  if (checked.kind === 'challenge') return challengeReply(c, r, checked.waitS);
  let result;
  try {
    const up = upstreamFor(c.env);
    result =
      checkType === 1
        ? await up.sendSmsCode({ expoId: r.page.expoId, areaCode: v.areaCode, national: v.phone })
        : await up.sendEmailCode({ expoId: r.page.expoId, email: v.email, lang });
  } catch (e) {
    return faultReply(c, r, e);
  }
  if (!result.ok) {
    // spec §4, §8: 600 (or any refusal) re-enables the button and shows the server's msg, in the
    // page language where the product knows the refusal (src/lib/page/upstream-message.ts).
    const view = readRefusal(result.code, result.msg);
    if (json) return c.json<SendCodeReply>({ code: result.code, msg: refusalText(view, t), data: null });
    return flashBack(c, r, { notice: { tone: 'error', key: view.key, vars: view.vars, text: view.text } });
  }
  const secure = new URL(c.req.url).protocol === 'https:';
  setCookie(c, SENT_COOKIE, String(Math.floor(Date.now() / 1000)), { path: '/', maxAge: RESEND_S, httpOnly: true, sameSite: 'Lax', secure });
  // the code is bound to this browser; only it may check the code.
  const bound = await signBinding({ c: key, e: r.page.expoId, n: own?.n ?? newNonce() }, secret);
  setCookie(c, BIND_COOKIE, bound, { path: '/', maxAge: BIND_MAX_AGE_S, httpOnly: true, sameSite: 'Lax', secure });
  deleteCookie(c, TICKET_COOKIE, { path: '/' });
  // a reload keeps the contact as well as the countdown (a cookie, never the URL).
  const sentTo = encodeSentTo({ expoId: r.page.expoId, checkType, areaCode: v.areaCode, phone: v.phone, email: v.email });
  setCookie(c, SENT_TO_COOKIE, sentTo, { path: '/', maxAge: SENT_TO_MAX_AGE_S, httpOnly: true, sameSite: 'Lax', secure });
  if (json) return c.json<SendCodeReply>({ code: 200, msg: result.msg, data: { resendIn: RESEND_S } });
  const shown = checkType === 1 ? `${v.areaCode} ${v.phone}` : v.email;
  return flashBack(c, r, { notice: { tone: 'info', key: 'search.codeSentTo', vars: { contact: shown }, text: null } });
});

/**
 * A shared budget is full: the sender must pass a challenge. JSON: HTTP 429,
 * code 601, the message and `data.challenge` (the Turnstile site key when configured, and
 * the seconds a wait ticket needs); the island shows the widget or counts down. A form post
 * goes back to the page with every value and the wait; the ticket is in its cookie already.
 */
function challengeReply(c: Ctx, r: Request_, waitS: number): Response {
  const siteKey = challengeOf(c.env).siteKey;
  if (!r.input.json) return flashBack(c, r, { notice: { tone: 'error', key: 'limit.challengeWait', vars: { n: waitS }, text: null } });
  const msg = r.input.t(siteKey ? 'limit.challenge' : 'limit.challengeWait', { n: waitS });
  return c.json<SendCodeReply>({ code: 601, msg, data: { challenge: { waitS, turnstile: siteKey !== null } } }, 429, {
    'retry-after': String(waitS),
  });
}

lookup.post('/lookup', async (c) => {
  const r = await parse(c);
  if (r instanceof Response) return r;
  const { t, json } = r.input;
  const checkType = parseCheckType(r.typed.checkType);
  const refused = modeRefused(c, r, checkType);
  if (refused) return refused;
  const bypass = usesBypass(r.variant, r.page.expoId, r.page.urlId, checkType);
  const valid = validateLookup(
    { checkType, areaCode: r.typed.areaCode, phone: r.typed.phone, email: r.typed.email, code: r.typed.code },
    { requireCode: !bypass },
  );
  if (!valid.ok) {
    const message = t(valid.key);
    if (json) return c.json<LookupReply>({ code: 400, msg: message, data: { outcome: 'invalid', field: valid.field, message } });
    return flashBack(c, r, { error: { field: valid.field, key: valid.key, text: null } });
  }
  const v = valid.value;
  const contact = contactOf(checkType, v);
  const captcha = bypass ? (c.env.BYPASS_CODE ?? '') : v.code;
  if (bypass && !/^\d{4}$/.test(captcha)) {
    // An operator error: the site is configured for the bypass but the secret is missing.
    console.error('BYPASS_CODE is not set (4 digits); the 10542 e-mail lookup cannot run');
    if (json) return c.json<LookupReply>({ code: 500, msg: t('search.otherError'), data: { outcome: 'nodata', message: t('search.otherError') } });
    return flashBack(c, r, { notice: { tone: 'error', key: 'search.otherError', text: null } });
  }

  // abuse limits (functions/limits): refused before the upstream checks (and burns) the code.
  const limits = await checkLookupLimits(c, { checksCode: !bypass });
  if (limits.refused) return limitedReply(c, limits.refused, r.input, (notice) => flashBack(c, r, { notice }));
  // a code is checked only from the browser it was sent to, so
  // guesses from anywhere else never reach the upstream and cannot burn the visitor's code
  // (counted above as a code not accepted: it keeps its wrong-code slot).
  if (!bypass && !bindingMatches(await readBinding(getCookie(c, BIND_COOKIE), c.env.SESSION_SECRET ?? ''), contactKey(contact), r.page.expoId)) {
    return unbound(c, r);
  }
  let outcome: Outcome<Registration>;
  /** the lookup call's own refusal (it checks the code too), for a failed outcome */
  let refusal: RefusalView | null = null;
  try {
    const up = upstreamFor(c.env);
    // spec §4: verify the code first (skipped for the bypass), then query; continue only on 200.
    if (!bypass) {
      const verified = await up.captchaVerify({ expoId: r.page.expoId, contact, captcha });
      if (!verified.ok) return failed(c, r, readRefusal(verified.code, verified.msg));
      await limits.codeAccepted(); // abuse limits: a right code is not a wrong one
    }
    const found = await up.queryRegistrations({ expoId: r.page.expoId, contact, captcha, urlsId: bypass ? r.page.urlId : undefined });
    if (!found.ok && found.kind === 'refused') refusal = readRefusal(found.code, found.msg);
    outcome = found.ok
      ? decideOutcome({ variant: r.variant, expoId: r.page.expoId, code: found.code, records: found.data })
      : decideOutcome({ variant: r.variant, expoId: r.page.expoId, code: found.code, records: [], data: 'data' in found ? found.data : undefined });
    if (bypass) outcome = bypassOutcome(outcome);
  } catch (e) {
    return faultReply(c, r, e);
  }
  if (outcome.kind === 'error') return failed(c, r, refusal);

  const verifiedContact: VerifiedContact = {
    expoId: r.page.expoId,
    contact: checkType === 1 ? fullPhone(v.areaCode, v.phone) : v.email,
    checkType,
    ...(checkType === 1 ? { areaCode: v.areaCode } : {}),
    // spec §2.2's bypass proved no contact: the cookie says so.
    ...(bypass ? { bypass: true as const } : {}),
  };
  // The codes the lookup found, for the forms' pre-fill; a list holds them already.
  const codes = outcome.kind === 'select' ? [] : foundCodes(outcome, MAX_CODES);
  if (codes.length > 0) verifiedContact.codes = codes;
  return respond(c, r, outcome, verifiedContact, v);
});

/**
 * spec §8: a failed verify or lookup shows no message; the form keeps every value. Except
 * when the code can no longer work (its wrong tries used up, expired, used,
 * never sent) or the event is unknown: then the visitor learns that a new code is needed, and
 * the send-code countdown is dropped, so the button is usable at once (JS: the island stops
 * its countdown; no JS: the page comes back without the `sent` cookie).
 */
function failed(c: Ctx, r: Request_, refusal: RefusalView | null): Response {
  const shown = refusal !== null && (refusal.newCodeNeeded || refusal.kind === 'unknownExpo') ? refusal : null;
  if (shown?.newCodeNeeded) deleteCookie(c, SENT_COOKIE, { path: '/' });
  if (r.input.json) {
    if (!shown) return c.json<LookupReply>({ code: 200, msg: null, data: { outcome: 'failed' } });
    const message = refusalText(shown, r.input.t);
    return c.json<LookupReply>({ code: 200, msg: null, data: { outcome: 'failed', message, newCode: shown.newCodeNeeded } });
  }
  return flashBack(c, r, { error: { field: 'code', key: shown?.key ?? null, text: null } });
}

/**
 * A code from a browser it was not sent to: refused at the edge with "ask
 * for a new code in this browser", as a code that can no longer work: the
 * send button is usable at once and every typed value stays.
 */
function unbound(c: Ctx, r: Request_): Response {
  deleteCookie(c, SENT_COOKIE, { path: '/' });
  if (r.input.json) {
    return c.json<LookupReply>({ code: 200, msg: null, data: { outcome: 'failed', message: r.input.t('limit.otherBrowser'), newCode: true } });
  }
  return flashBack(c, r, { error: { field: 'code', key: 'limit.otherBrowser', text: null } });
}

/** Session-storage keys of spec §3 the island writes after a lookup (and the ones it removes). */
function sessionFor(r: Request_, vc: VerifiedContact, v: { areaCode: string; phone: string; email: string }) {
  const session: Record<string, string> = { expoId: String(r.page.expoId), checkType: String(vc.checkType), fId: String(r.page.urlId) };
  let removeSession: string[];
  if (vc.checkType === 1) {
    session['phone'] = v.phone;
    session['areatext'] = v.areaCode;
    removeSession = ['email'];
  } else {
    // spec §2.2: 1108 keeps its e-mail under the key `phone`.
    const key = r.variant?.rules.emailSessionKey ?? 'email';
    session[key] = v.email;
    removeSession = key === 'phone' ? ['email', 'areatext'] : ['phone', 'areatext'];
  }
  return { session, removeSession };
}

async function respond(
  c: Ctx,
  r: Request_,
  outcome: Exclude<Outcome<Registration>, { kind: 'error' }>,
  vc: VerifiedContact,
  v: { areaCode: string; phone: string; email: string },
): Promise<Response> {
  const { t, json } = r.input;
  const { page, variant } = r;
  const ids = { fId: page.urlId, expoId: page.expoId, ty: page.ty };
  const formAt = (route: string, query = '') => routePath({ screen: 'form', route, params: ids }) + query;
  const { session, removeSession } = sessionFor(r, vc, v);
  const credential = (euCode: string) =>
    successPath({ variant, urlId: page.urlId, euCode, expoId: page.expoId, fId: page.urlId, f: page.f });

  let reply: LookupOutcome;
  let location: string;
  // Sent here from a ticket or order page (spec §4: they need the verified contact): back there,
  // whatever the contact has registered; never for a bypass lookup, which proves no contact.
  // Or from a registration form whose confirmation expired mid-form: back to that form.
  if (vc.bypass !== true && (isTicketNext(page.next, page.expoId) || isFormNext(page.next, page.expoId))) {
    location = page.next;
    await setVerifiedContact(c, vc);
    deleteCookie(c, FLASH_COOKIE, { path: '/' });
    if (json) return c.json<LookupReply>({ code: 200, msg: null, data: { outcome: 'navigate', location, replace: true, session, removeSession } });
    return c.redirect(location, 303);
  }
  switch (outcome.kind) {
    case 'nodata': {
      const message = t('search.nodata');
      if (json) return c.json<LookupReply>({ code: 200, msg: null, data: { outcome: 'nodata', message } });
      return flashBack(c, r, { notice: { tone: 'error', key: 'search.nodata', text: null } });
    }
    case 'form':
      location = formAt(variant?.form ?? 'form');
      reply = { outcome: 'navigate', location, replace: false, session, removeSession };
      break;
    case 'success':
      location = credential(outcome.record.euCode ?? '');
      reply = { outcome: 'navigate', location, replace: true, session, removeSession };
      break;
    case 'supplement':
      // ?e= lets the supplement form prefill what the registration already has.
      location = formAt(outcome.route, `?e=${encodeURIComponent(outcome.record.euCode ?? '')}`);
      reply = { outcome: 'navigate', location, replace: false, session, removeSession };
      break;
    case 'repair':
      location = formAt('repairForm', `?e=${encodeURIComponent(outcome.record.euCode ?? '')}`);
      reply = { outcome: 'navigate', location, replace: false, session, removeSession };
      break;
    case 'secondForm':
      vc.secondForm = { userId: outcome.userId, urlsId: outcome.urlsId };
      location = formAt(outcome.route);
      reply = {
        outcome: 'navigate',
        location,
        replace: false,
        session: { ...session, userId: String(outcome.userId), urlsId: String(outcome.urlsId) },
        removeSession,
      };
      break;
    case 'select': {
      const rows = outcome.records.map((rec) => ({
        name: rec.uname ?? '',
        label: registrationLabel(rec, (k) => t(k as Parameters<typeof t>[0])),
        href: credential(rec.euCode ?? ''),
      }));
      vc.list = outcome.records.map(listEntry);
      location = `${routePath({ screen: 'applyList', params: ids })}${variant ? `?v=${encodeURIComponent(variant.name)}&f=${encodeURIComponent(page.f)}` : `?f=${encodeURIComponent(page.f)}`}`;
      reply = { outcome: 'select', rows, session, removeSession };
      break;
    }
  }
  await setVerifiedContact(c, vc);
  deleteCookie(c, FLASH_COOKIE, { path: '/' });
  if (json) return c.json<LookupReply>({ code: 200, msg: null, data: reply });
  return c.redirect(location, 303);
}

/**
 * A list row as the cookie keeps it, cut to what the list shows: euDefine is shown only when
 * shorter than 20 characters (spec §2.1), so 20 keep that rule; names and ticket names are cut.
 */
function listEntry(rec: Registration): ListEntry {
  // Code points of the trimmed text, as registrationLabel counts them.
  const cut = (v: string | null | undefined, n: number) => (v == null ? null : [...v.trim()].slice(0, n).join(''));
  return { e: rec.euCode ?? '', n: cut(rec.uname, 40) ?? '', c: rec.euClass, d: cut(rec.euDefine, 20), t: cut(rec.ticketName, 40) };
}

/** Largest signed `vc` value: a cookie (name, value, attributes) must stay under browsers' 4096 bytes. */
const MAX_CONTACT_COOKIE = 3800;

async function setVerifiedContact(c: Ctx, vc: VerifiedContact): Promise<void> {
  const secret = c.env.SESSION_SECRET ?? '';
  let value = await signContact(vc, secret);
  // A contact with very many registrations: the no-JS list shows the first ones.
  while (value.length > MAX_CONTACT_COOKIE && vc.list && vc.list.length > 1) {
    vc.list = vc.list.slice(0, Math.ceil((vc.list.length * 2) / 3));
    value = await signContact(vc, secret);
  }
  setCookie(c, CONTACT_COOKIE, value, {
    path: '/',
    maxAge: CONTACT_COOKIE_MAX_AGE_S,
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
  });
}

