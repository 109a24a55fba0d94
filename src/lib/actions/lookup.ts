/**
 * The lookup's two actions (spec §2.1, §4, §5, §8): send a code to a contact, and look up the
 * contact's registrations with that code (or with the bypass of spec §2.2). Both post the
 * page's hidden fields and what the visitor typed; a form post comes back to the page with
 * every typed value (the code too) or goes on to the next page.
 */
import { z } from 'zod';
import { CONTACT_COOKIE, CONTACT_COOKIE_MAX_AGE_S, MAX_CODES, signContact, type ListEntry, type VerifiedContact } from '../lookup/contact-cookie';
import { FLASH_COOKIE, FLASH_MAX_PATH } from '../page/flash';
import { safeBackPath } from '../util/safe-redirect';
import { parseCheckType, validateLookup, validateSendCode, type CheckType } from '../lookup/validation';
import { withInternational } from '../form/countries';
import { CALLING_CODES } from '../form/country-list';
import { variantByName, type Variant } from '../core/variants';
import { bypassOutcome, decideOutcome, foundCodes, successPath, type Outcome } from '../lookup/lookup';
import { registrationLabel } from '../core/labels';
import { fullPhone } from '../form/phone';
import { routePath } from '../core/routes';
import { encodeSentTo, resendWaitS, RESEND_S, SENT_COOKIE, SENT_TO_COOKIE, SENT_TO_MAX_AGE_S } from '../lookup/resend';
import { readRefusal, refusalText, type RefusalView } from '../page/upstream-message';
import { BYPASS_PROVE_COOKIE, BYPASS_PROVE_MAX_AGE_S, bypassFor, usesBypass } from '../lookup/page';
import { isTicketNext } from '../tickets/paths';
import { isFormNext } from '../form/page';
import { defineParam, withDefine } from '../form/define';
import { withNoneFound } from '../form/none-found';
import { contactKey, phoneDestination } from '../security/limits';
import { BIND_COOKIE, BIND_MAX_AGE_S, bindingMatches, MAX_BOUND_HITS, newNonce, readBinding, signBinding, TICKET_COOKIE } from '../security/friction';
import type { Registration } from '../util/domain';
import { lookupCall } from '../expo/haisi';
import { limitOutcome, refusedForContact, type CountedHit, type LookupCount, type LookupLimits, type SendCheck, type SendCount } from './limits';
import { defineAction, type ActionContext, type ActionOutcome } from './outcome';
import type { Contact, LookupCalls } from './ports';

/** The send-code envelope's `data` (spec §7). */
export interface SendCodeReply {
  code: number;
  msg: string | null;
  data:
    | { resendIn: number }
    | { field: 'areaCode' | 'phone' | 'email'; message: string }
    /** code 601: a challenge first; `turnstile`: the page can show the widget */
    | { challenge: { waitS: number; turnstile: boolean } }
    | null;
}

export interface SelectRow {
  name: string;
  label: string;
  href: string;
}

export type LookupOutcome =
  | { outcome: 'navigate'; location: string; replace: boolean; session: Record<string, string>; removeSession: string[] }
  | { outcome: 'select'; rows: SelectRow[]; session: Record<string, string>; removeSession: string[] }
  | { outcome: 'nodata'; message: string }
  | { outcome: 'invalid'; field: 'areaCode' | 'phone' | 'email' | 'code'; message: string }
  /**
   * verify or lookup failed: spec §8 says no message; the form keeps its values. A code that
   * can no longer work comes with a message and `newCode` (the countdown stops).
   */
  | { outcome: 'failed'; message?: string; newCode?: boolean };

export interface LookupReply {
  code: number;
  msg: string | null;
  data: LookupOutcome | null;
}

export interface LookupPorts {
  upstream: LookupCalls;
  /** SESSION_SECRET: the contact, binding and ticket cookies */
  secret: string;
  /** BYPASS_CODE: the 4 digits of the e-mail lookup without a code (spec §2.2) */
  bypassCode: string;
  /** EXHIBITOR_BYPASS is not `off`: the code-less lookup of spec §2.2 runs on its sites */
  bypass: boolean;
  /** the abuse limits of a code send (a challenge past a shared budget) */
  countSend(s: SendCount): Promise<SendCheck>;
  /** the abuse limits of a lookup (wrong-code slots when it checks a code) */
  countLookup(s: LookupCount): Promise<LookupLimits>;
  /** gives back counted hits (a send's budgets when the upstream sent nothing) */
  giveBack(hits: readonly CountedHit[]): Promise<void>;
  /** the challenge can show the Turnstile widget (a site key is configured) */
  turnstile: boolean;
}

const decimal = z.string().trim().regex(/^\d{1,12}$/, 'a positive decimal').transform(Number).pipe(z.number().int().positive());

/** The hidden fields every lookup form posts (DESIGN.md: ids as plain decimals). */
const Page = z.object({
  expoId: decimal,
  urlId: decimal,
  ty: z.string().trim().regex(/^[A-Za-z0-9_-]{0,32}$/, 'a short word').default(''),
  variant: z.string().trim().max(40).default(''),
  // spec §2.3 /lvYunSearch: its several matches go to /lvYunList; any other value is the usual list.
  list: z.string().default('').transform((s) => (s.trim() === 'lvYun' ? ('lvYun' as const) : null)),
  // Hidden fields a visitor cannot have typed: cut or dropped when over-long, never a refusal
  // that would lose what the visitor did type.
  f: z.string().default('').transform((s) => s.slice(0, 200)),
  back: z.string().default('').transform((s) => (s.length > FLASH_MAX_PATH ? '' : s)),
  // A purchase page to return to once verified (spec §4 guard): kept only when it is one of this expo's.
  next: z.string().default('').transform((s) => s.slice(0, 300)),
  // spec §7 getForm: a labelled link's label, passed on to a new registration's form as it came
  // (the form asks the organiser); an over-long one is dropped.
  define: z.string().default('').transform((s) => defineParam(s) ?? ''),
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
type Typed = z.infer<typeof Typed>;

const Input = Page.extend(Typed.shape);
type Posted = z.infer<typeof Input>;

/** The values a no-JS page refills (the code too: nothing typed is lost). */
function keep(fields: Readonly<Record<string, string>>): Record<string, string> {
  const { checkType, areaCode, phone, email, code }: Typed = Typed.parse(fields);
  return { checkType, areaCode, phone, email, code };
}

/** The page's own search path. */
function ownPath(page: Page, variant: Variant | null): string {
  return routePath({ screen: 'search', variant, params: { fId: page.urlId, expoId: page.expoId, ty: page.ty } });
}

/** Where a form post comes back to: the posted page when it is ours and can hold a flash, else the page's own path. */
function back(fields: Readonly<Record<string, string>>, ctx: ActionContext): string {
  const page = Page.safeParse(fields);
  if (!page.success) return fields['back'] ?? '';
  const variant = page.data.variant ? variantByName(page.data.variant) : null;
  if (page.data.variant && !variant) return fields['back'] ?? '';
  return backOf(page.data, variant, ctx);
}

/** The posted back path when it is ours and can hold a flash (else what was typed would be lost), or the page's own path. */
function backOf(page: Page, variant: Variant | null, ctx: ActionContext): string {
  const posted = safeBackPath(page.back, ctx.origin);
  return posted !== null && posted.length <= FLASH_MAX_PATH ? posted : ownPath(page, variant);
}

/** The page's variant, or a broken request (a variant no page names). */
function variantOf(p: Posted): Variant | null | undefined {
  return p.variant ? (variantByName(p.variant) ?? undefined) : null;
}

function contactOf(checkType: CheckType, v: { areaCode: string; phone: string; email: string }): Contact {
  return checkType === 1 ? { type: 'phone', areaCode: v.areaCode, national: v.phone } : { type: 'email', email: v.email };
}

/** A mode the page does not offer (e.g. phone on an e-mail-only event) is a hand-made request. */
function modeRefused(variant: Variant | null, checkType: CheckType, ctx: ActionContext): ActionOutcome<never> | null {
  if (!variant || variant.modes.offered.includes(checkType === 1 ? 'phone' : 'email')) return null;
  return { kind: 'broken', message: ctx.t(checkType === 1 ? 'api.emailOnly' : 'api.phoneOnly') };
}

/** The page's variant and the mode posted, or the broken request it is. */
function modeOf(p: Posted, ctx: ActionContext): { variant: Variant | null; checkType: CheckType } | ActionOutcome<never> {
  const variant = variantOf(p);
  if (variant === undefined) return { kind: 'broken', message: ctx.t('api.badPage') };
  const checkType = parseCheckType(p.checkType);
  return modeRefused(variant, checkType, ctx) ?? { variant, checkType };
}

/** What both actions declare alike: the page's fields, the way back and the values kept. */
const LOOKUP_FORM = { bodyLimit: 16 * 1024, input: Input, back, keep } as const;

/**
 * A shared budget is full: the sender must pass a challenge. JSON: HTTP 429, code 601, the
 * message and `data.challenge` (whether the page can show the Turnstile widget, and the
 * seconds a wait ticket needs); the island shows the widget or counts down. A form post goes
 * back to the page with every value and the wait; the ticket is in its cookie already.
 */
function challenge(check: Extract<SendCheck, { kind: 'challenge' }>, turnstile: boolean, ctx: ActionContext): ActionOutcome<SendCodeReply['data']> {
  const { waitS } = check;
  const vars = { n: waitS };
  return {
    ...(check.ticket ? { cookies: [check.ticket] } : {}),
    kind: 'notice',
    notice: { tone: 'error', key: 'limit.challengeWait', vars, text: null },
    status: 429,
    headers: { 'retry-after': String(waitS) },
    code: 601,
    // the island can show the Turnstile widget: it says so; a page without JavaScript can only wait
    ...(turnstile ? { msg: ctx.t('limit.challenge', vars) } : {}),
    data: { challenge: { waitS, turnstile } },
  };
}

export const sendCode = defineAction({
  path: '/api/send-code',
  ...LOOKUP_FORM,
  async run(p, ports: LookupPorts, ctx): Promise<ActionOutcome<SendCodeReply['data']>> {
    const mode = modeOf(p, ctx);
    if ('kind' in mode) return mode;
    const { variant, checkType } = mode;
    const valid = validateSendCode(withInternational({ checkType, areaCode: p.areaCode, phone: p.phone, email: p.email }, CALLING_CODES));
    if (!valid.ok) return { kind: 'invalid', errors: [{ field: valid.field, key: valid.key, text: null }] };
    // The button is not shown on the bypass path; a hand-made post gets a clear answer, and no code.
    if (usesBypass(variant, p.expoId, p.urlId, checkType, bypassOn(p, ports, ctx))) return { kind: 'notice', notice: { tone: 'error', key: 'search.otherError', text: null } };
    // spec §4: one code per 60 s; the server remembers when the last one was sent (survives a reload).
    const wait = resendWaitS(ctx.cookies[SENT_COOKIE], ctx.now);
    if (wait > 0) {
      const vars = { n: wait };
      return { kind: 'notice', notice: { tone: 'error', key: 'search.waitResend', vars, text: null }, code: 600 };
    }
    const v = valid.value;
    const contact = contactOf(checkType, v);
    // only a calling code the form offers, read from the whole number (`+4` `47…` is +44).
    if (contact.type === 'phone' && !phoneDestination(contact.areaCode, contact.national)) {
      return { kind: 'invalid', errors: [{ field: 'areaCode', key: 'limit.unknownCountry', text: null }] };
    }
    // a browser the contact's last code went to has a send budget of its own.
    const key = contactKey(contact);
    const binding = await readBinding(ctx.cookies[BIND_COOKIE], ports.secret, ctx.now);
    const own = bindingMatches(binding, key, p.expoId) ? binding : null;
    // abuse limits: counted at the edge before the upstream sends anything.
    const checked = await ports.countSend({ expoId: p.expoId, contact, ownNonce: own?.n ?? null, token: p['cf-turnstile-response'], json: ctx.json });
    if (checked.kind === 'refused') return limitOutcome(checked.refusal);
    if (checked.kind === 'challenge') return challenge(checked, ports.turnstile, ctx);
    const result =
      checkType === 1
        ? await ports.upstream.sendSmsCode({ expoId: p.expoId, areaCode: v.areaCode, national: v.phone })
        : await ports.upstream.sendEmailCode({ expoId: p.expoId, email: v.email, lang: ctx.lang as Parameters<LookupCalls['sendEmailCode']>[0]['lang'] });
    if (!result.ok) {
      // Nothing went out: the shared budgets count codes sent, so their hits come back.
      await ports.giveBack(checked.unverified);
      // spec §4, §8: 600 (or any refusal) re-enables the button and shows the server's msg, in the
      // page language where the product knows the refusal (src/lib/page/upstream-message.ts).
      const view = readRefusal(result.code, result.msg);
      return { kind: 'notice', notice: { tone: 'error', key: view.key, vars: view.vars, text: view.text }, code: result.code };
    }
    const shown = checkType === 1 ? `${v.areaCode} ${v.phone}` : v.email;
    return {
      kind: 'notice',
      notice: { tone: 'info', key: 'search.codeSentTo', vars: { contact: shown }, text: null },
      // the island shows the upstream's own words beside its countdown (spec §4)
      msg: result.msg,
      data: { resendIn: RESEND_S },
      cookies: [
        { name: SENT_COOKIE, value: String(Math.floor(ctx.now / 1000)), maxAge: RESEND_S },
        // the code is bound to this browser; only it may check the code.
        // with the budgets' hits of its sends, given back when the code is verified.
        { name: BIND_COOKIE, value: await signBinding({ c: key, e: p.expoId, n: own?.n ?? newNonce(), h: [...(own?.h ?? []), ...checked.unverified.map(([k, id]): [string, number] => [k, id])].slice(-MAX_BOUND_HITS) }, ports.secret, ctx.now), maxAge: BIND_MAX_AGE_S },
        { name: TICKET_COOKIE, value: null },
        // a reload keeps the contact as well as the countdown (a cookie, never the URL).
        { name: SENT_TO_COOKIE, value: encodeSentTo({ expoId: p.expoId, checkType, areaCode: v.areaCode, phone: v.phone, email: v.email }), maxAge: SENT_TO_MAX_AGE_S },
      ],
    };
  },
});

type LookupAnswer = ActionOutcome<LookupOutcome>;

/** Whether spec §2.2's bypass runs for this browser on the posted expo (the deployment's setting and {@link BYPASS_PROVE_COOKIE}). */
function bypassOn(p: Posted, ports: LookupPorts, ctx: ActionContext): boolean {
  return bypassFor(ports.bypass, ctx.cookies[BYPASS_PROVE_COOKIE], p.expoId);
}

/**
 * The e-mail's code-less lookups are spent (harvesters, or the owner many times): instead of a
 * refusal, this browser is asked to prove the e-mail by a code from now on (issue 29: a contact's
 * own browser is never locked out by lookups it did not make). The page comes back, every value
 * kept, with the code field, the send button and a note saying why; the island follows it there.
 */
function proveByCode(p: Posted, variant: Variant | null, ctx: ActionContext): LookupAnswer {
  const location = backOf(p, variant, ctx);
  return {
    kind: 'notice',
    // the note names the send button by its own key (`$t(search.sendCode)` in the catalogue), in the page's language
    notice: { tone: 'info', key: 'search.bypassProve', text: null },
    flashWithJson: true,
    cookies: [{ name: BYPASS_PROVE_COOKIE, value: String(p.expoId), maxAge: BYPASS_PROVE_MAX_AGE_S }],
    msg: null,
    data: { outcome: 'navigate', location, replace: true, session: {}, removeSession: [] },
  };
}

/**
 * spec §8: a failed verify or lookup shows no message; the form keeps every value. Except
 * when the code can no longer work (its wrong tries used up, expired, used, never sent) or the
 * event is unknown: then the visitor learns that a new code is needed, and the send-code
 * countdown is dropped, so the button is usable at once (JS: the island stops its countdown;
 * no JS: the page comes back without the `sent` cookie).
 */
function failed(refusal: RefusalView | null, ctx: ActionContext): LookupAnswer {
  const shown = refusal !== null && (refusal.newCodeNeeded || refusal.kind === 'unknownExpo') ? refusal : null;
  const data: LookupOutcome = shown ? { outcome: 'failed', message: refusalText(shown, ctx.t), newCode: shown.newCodeNeeded } : { outcome: 'failed' };
  return {
    kind: 'invalid',
    errors: [{ field: 'code', key: shown?.key ?? null, text: null }],
    // the island shows the message from `data`, and no field is at fault for it (spec §8)
    code: 200,
    msg: null,
    data,
    ...(shown?.newCodeNeeded ? { cookies: [{ name: SENT_COOKIE, value: null }] } : {}),
  };
}

/**
 * A code from a browser it was not sent to: refused at the edge with "ask for a new code in
 * this browser", as a code that can no longer work: the send button is usable at once and
 * every typed value stays.
 */
function unbound(ctx: ActionContext): LookupAnswer {
  return {
    kind: 'invalid',
    errors: [{ field: 'code', key: 'limit.otherBrowser', text: null }],
    code: 200,
    msg: null,
    data: { outcome: 'failed', message: ctx.t('limit.otherBrowser'), newCode: true },
    cookies: [{ name: SENT_COOKIE, value: null }],
  };
}

export const lookup = defineAction({
  path: '/api/lookup',
  ...LOOKUP_FORM,
  async run(p, ports: LookupPorts, ctx): Promise<LookupAnswer> {
    const mode = modeOf(p, ctx);
    if ('kind' in mode) return mode;
    const { variant, checkType } = mode;
    const { t } = ctx;
    const bypass = usesBypass(variant, p.expoId, p.urlId, checkType, bypassOn(p, ports, ctx));
    const valid = validateLookup(withInternational({ checkType, areaCode: p.areaCode, phone: p.phone, email: p.email, code: p.code }, CALLING_CODES), { requireCode: !bypass });
    if (!valid.ok) {
      const message = t(valid.key);
      return {
        kind: 'invalid',
        errors: [{ field: valid.field, key: valid.key, text: null }],
        data: { outcome: 'invalid', field: valid.field, message },
      };
    }
    const v = valid.value;
    const contact = contactOf(checkType, v);
    const captcha = bypass ? ports.bypassCode : v.code;
    if (bypass && !/^\d{4}$/.test(captcha)) {
      // An operator error: the site is configured for the bypass but the secret is missing.
      console.error('BYPASS_CODE is not set (4 digits); the 10542 e-mail lookup cannot run');
      const message = t('search.otherError');
      return { kind: 'notice', notice: { tone: 'error', key: 'search.otherError', text: null }, code: 500, data: { outcome: 'nodata', message } };
    }
    // a code is checked only from the browser it was sent to, so guesses from anywhere else
    // never reach the upstream and cannot burn the visitor's code.
    const binding = await readBinding(ctx.cookies[BIND_COOKIE], ports.secret, ctx.now);
    const bound = !bypass && bindingMatches(binding, contactKey(contact), p.expoId);
    // abuse limits: refused before the upstream checks (and burns) the code; an unbound guess
    // keeps its address's wrong-code slot, never the contact's.
    const limits = await ports.countLookup({ expoId: p.expoId, contact, checksCode: !bypass, browser: bound ? (binding?.n ?? null) : null });
    if (limits.refused) return bypass && refusedForContact(limits.refused) ? proveByCode(p, variant, ctx) : limitOutcome(limits.refused);
    if (!bypass && !bound) return unbound(ctx);
    // spec §4: verify the code first (skipped for the bypass), then query; continue only on 200.
    if (!bypass) {
      const verified = await ports.upstream.captchaVerify({ expoId: p.expoId, contact, captcha });
      if (!verified.ok) return failed(readRefusal(verified.code, verified.msg), ctx);
      // a right code is not a wrong one, and the sends it came from were a visitor's, not abuse.
      await limits.codeAccepted(binding?.h ?? []);
    }
    const call = lookupCall(variant);
    const found = await ports.upstream.queryRegistrations({ expoId: p.expoId, contact, captcha, urlsId: bypass ? p.urlId : undefined, ...(call === 'queryHaiPhone' ? { call } : {}) });
    let outcome: Outcome<Registration> = found.ok
      ? decideOutcome({ variant, expoId: p.expoId, code: found.code, records: found.data })
      : decideOutcome({ variant, expoId: p.expoId, code: found.code, records: [], data: 'data' in found ? found.data : undefined });
    if (bypass) outcome = bypassOutcome(outcome);
    // the lookup call's own refusal (it checks the code too), for a failed outcome
    if (outcome.kind === 'error') return failed(!found.ok && found.kind === 'refused' ? readRefusal(found.code, found.msg) : null, ctx);

    const vc: VerifiedContact = {
      expoId: p.expoId,
      contact: checkType === 1 ? fullPhone(v.areaCode, v.phone) : v.email,
      checkType,
      ...(checkType === 1 ? { areaCode: v.areaCode } : {}),
      // spec §2.2's bypass proved no contact: the cookie says so.
      ...(bypass ? { bypass: true as const } : {}),
    };
    // The codes the lookup found, for the forms' pre-fill; a list holds them already.
    const codes = outcome.kind === 'select' ? [] : foundCodes(outcome, MAX_CODES);
    if (codes.length > 0) vc.codes = codes;
    return respond(p, variant, outcome, vc, v, ports.secret, ctx);
  },
});

/** Session-storage keys of spec §3 the island writes after a lookup (and the ones it removes). */
function sessionFor(p: Posted, variant: Variant | null, vc: VerifiedContact, v: { areaCode: string; phone: string; email: string }) {
  const session: Record<string, string> = { expoId: String(p.expoId), checkType: String(vc.checkType), fId: String(p.urlId) };
  let removeSession: string[];
  if (vc.checkType === 1) {
    session['phone'] = v.phone;
    session['areatext'] = v.areaCode;
    removeSession = ['email'];
  } else {
    // spec §2.2: 1108 keeps its e-mail under the key `phone`.
    const key = variant?.rules.emailSessionKey ?? 'email';
    session[key] = v.email;
    removeSession = key === 'phone' ? ['email', 'areatext'] : ['phone', 'areatext'];
  }
  return { session, removeSession };
}

/** Where a found contact goes next, and what the island is told. */
async function respond(
  p: Posted,
  variant: Variant | null,
  outcome: Exclude<Outcome<Registration>, { kind: 'error' }>,
  vc: VerifiedContact,
  v: { areaCode: string; phone: string; email: string },
  secret: string,
  ctx: ActionContext,
): Promise<LookupAnswer> {
  const ids = { fId: p.urlId, expoId: p.expoId, ty: p.ty };
  const formAt = (route: string, query = '') => routePath({ screen: 'form', route, params: ids }) + query;
  const { session, removeSession } = sessionFor(p, variant, vc, v);
  const credential = (euCode: string) => successPath({ variant, urlId: p.urlId, euCode, expoId: p.expoId, fId: p.urlId, f: p.f });
  const go = async (location: string, data: LookupOutcome): Promise<LookupAnswer> => ({
    kind: 'navigate',
    location,
    data,
    cookies: [{ name: CONTACT_COOKIE, value: await verifiedCookie(vc, secret, ctx.now), maxAge: CONTACT_COOKIE_MAX_AGE_S, alwaysSecure: true }, { name: FLASH_COOKIE, value: null }],
  });
  const on = (location: string, replace: boolean) => go(location, { outcome: 'navigate', location, replace, session, removeSession });

  // Sent here from a ticket or order page (spec §4: they need the verified contact): back there,
  // whatever the contact has registered; never for a bypass lookup, which proves no contact.
  // Or from a registration form whose confirmation expired mid-form: back to that form.
  if (vc.bypass !== true && (isTicketNext(p.next, p.expoId) || isFormNext(p.next, p.expoId))) return on(p.next, true);
  switch (outcome.kind) {
    case 'nodata': {
      const message = ctx.t('search.nodata');
      // the island says it from `data` (spec §8: not an error of the request)
      return { kind: 'notice', notice: { tone: 'error', key: 'search.nodata', text: null }, code: 200, msg: null, data: { outcome: 'nodata', message } };
    }
    case 'form':
      return on(withNoneFound(withDefine(formAt(variant?.form ?? 'form'), p.define)), false);
    case 'success':
      return on(credential(outcome.record.euCode ?? ''), true);
    case 'supplement':
      // ?e= lets the supplement form prefill what the registration already has.
      return on(formAt(outcome.route, `?e=${encodeURIComponent(outcome.record.euCode ?? '')}`), false);
    case 'repair':
      return on(formAt('repairForm', `?e=${encodeURIComponent(outcome.record.euCode ?? '')}`), false);
    case 'secondForm': {
      vc.secondForm = { userId: outcome.userId, urlsId: outcome.urlsId };
      const location = formAt(outcome.route);
      const more = { userId: String(outcome.userId), urlsId: String(outcome.urlsId) };
      return go(location, { outcome: 'navigate', location, replace: false, session: { ...session, ...more }, removeSession });
    }
    case 'select': {
      const rows = outcome.records.map((rec) => ({
        name: rec.uname ?? '',
        label: registrationLabel(rec, (k) => ctx.t(k)),
        href: credential(rec.euCode ?? ''),
      }));
      vc.list = outcome.records.map(listEntry);
      // spec §2.3: the lvYun lookup's list is its own page, with JavaScript too (no popup).
      if (p.list) return on(`${routePath({ screen: 'applyList', params: ids, flavour: p.list })}${p.f ? `?f=${encodeURIComponent(p.f)}` : ''}`, false);
      const query = variant ? `?v=${encodeURIComponent(variant.name)}&f=${encodeURIComponent(p.f)}` : `?f=${encodeURIComponent(p.f)}`;
      return go(`${routePath({ screen: 'applyList', params: ids })}${query}`, { outcome: 'select', rows, session, removeSession });
    }
  }
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

/** The signed verified contact; with very many registrations, the no-JS list keeps the first ones. */
async function verifiedCookie(vc: VerifiedContact, secret: string, now: number): Promise<string> {
  let value = await signContact(vc, secret, now);
  while (value.length > MAX_CONTACT_COOKIE && vc.list && vc.list.length > 1) {
    vc.list = vc.list.slice(0, Math.ceil((vc.list.length * 2) / 3));
    value = await signContact(vc, secret, now);
  }
  return value;
}
