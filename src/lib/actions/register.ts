/**
 * Registering the form of any form route (spec §2.3 form routes, §4, §5; docs/upstream.md addUserInfo).
 *
 * - The page is resolved from its own path (`route` + `path`), never from a posted kind or expo.
 * - Registering needs the verified contact of this expo (cookie `vc`): it is what the form
 *   locks and what the upstream receives, whatever was posted for it. Without it (expired or
 *   gone mid-form) the visitor goes to the lookup with `?next=` this form, the contact filled
 *   in and a message saying why; every typed value waits in the `draft` cookie (and the
 *   island's session storage), so the new code leads back to the form as it was.
 * - A form view's idempotency key is remembered with its result (signed cookie, 10 min).
 * - A refusal of the form's values names every failing field at once.
 * - Registrations are counted per verified contact and per address before the upstream writes
 *   anything (`LIMIT_REGISTERS_*`).
 * - Success → the credential page (replace: spec §2.1). 20001 → the update prompt (spec §5).
 *   Any other refusal → the server's message in the page language (as the lookup's); nothing typed is lost.
 */
import { z } from 'zod';
import { addOwnCode, CONTACT_COOKIE, expiredContact, lookupValues, ownCodes, provenFor, verifyContact, type VerifiedContact } from '../lookup/contact-cookie';
import { DRAFT_COOKIE, DRAFT_MAX_AGE_S, encodeFlash, FLASH_COOKIE } from '../page/flash';
import { contactLock } from '../form/contact';
import { confirmedDefine, DEFINE_PARAM, defineParam, takesDefine, withDefine } from '../form/define';
import { IDEM_COOKIE, IDEM_KEY, IDEM_MAX_AGE_S, recalledResult, rememberResult } from '../form/idempotency';
import { fieldsFor, formPagePath, lookupPagePath, namesRegistration, resolveFormPage, updatesExisting, verifyAgainPath, type FormPage } from '../form/page';
import { parseFormDefinition } from '../form/schema';
import { validateForm } from '../form/validation';
import { successPath } from '../lookup/lookup';
import { matchRoute } from '../core/routes';
import { registerCall } from '../expo/haisi';
import { readRefusal, REGISTER_REFUSALS, refusalText, type RefusalKey } from '../page/upstream-message';
import { limitOutcome, type LimitRefusal } from './limits';
import { defineAction, type ActionContext, type ActionOutcome, type CookieWrite, type FieldError } from './outcome';
import type { RegisterCall } from './ports';

/** The `data` of the island's envelope (`{code, msg, data}`, spec §7). */
export type RegisterOutcome =
  | { outcome: 'navigate'; location: string; replace: boolean }
  | { outcome: 'invalid'; field: string; name: string; message: string }
  | { outcome: 'update'; message: string; noUpdate: string }
  | { outcome: 'refused'; message: string };
export interface RegisterReply {
  code: number;
  msg: string | null;
  data: RegisterOutcome | null;
}

export interface RegisterPorts {
  upstream: RegisterCall;
  /** SESSION_SECRET: the contact, idempotency and draft cookies */
  secret: string;
  /** counts a registration of this contact and address; a refusal when over a limit */
  countRegister(vc: VerifiedContact): Promise<LimitRefusal | null>;
}

/** Hidden fields the form posts about itself; everything else is a form value. */
const PAGE_FIELDS: ReadonlySet<string> = new Set(['route', 'path', 'f', 'idem', 'e', 'update', DEFINE_PARAM]);

/** Longest value kept from a post (the flash cookie's limit; field limits are the schema's). */
const MAX_VALUE = 2000;

const EU_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/** The form page a post names by its own path, or null (a request no page of ours makes). */
export function formPageOf(route: string, path: string): FormPage | null {
  const r = route.trim();
  const p = path.trim();
  const match = /^[A-Za-z][A-Za-z0-9]{0,40}$/.test(r) && p.length < 200 ? matchRoute(`/${r}/${p}`) : null;
  return match?.screen === 'form' ? resolveFormPage(match.route, match.rest, match.variant) : null;
}

/** The page path a form post comes back to (with the registration it completes), or '' without a page. */
function backOf(fields: Readonly<Record<string, string>>): string {
  const page = formPageOf(fields['route'] ?? '', fields['path'] ?? '');
  if (!page) return '';
  const euCode = (fields['e'] ?? '').trim();
  const define = takesDefine(page.kind) ? defineParam(fields[DEFINE_PARAM]) : null;
  return withDefine(formPagePath(page) + (EU_CODE.test(euCode) ? `?e=${encodeURIComponent(euCode)}` : ''), define);
}

/** The form's values: every posted field but the page's own, each cut to a sane length. */
function valuesOf(fields: Readonly<Record<string, string>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (!PAGE_FIELDS.has(k)) values[k] = v.slice(0, MAX_VALUE);
  return values;
}

const Input = z.record(z.string(), z.string()).transform((fields) => {
  const euCode = (fields['e'] ?? '').trim();
  return {
    page: formPageOf(fields['route'] ?? '', fields['path'] ?? ''),
    back: backOf(fields),
    f: (fields['f'] ?? '').slice(0, 200),
    idem: (fields['idem'] ?? '').trim(),
    /** the registration a repair or supplement form completes (its euCode), if the page knew it */
    euCode: EU_CODE.test(euCode) ? euCode : '',
    update: ['1', 'true', 'on'].includes((fields['update'] ?? '').trim()),
    /** the link's custom label as posted: a claim only, asked of the organiser again before it is sent */
    define: (fields[DEFINE_PARAM] ?? '').slice(0, 200),
    values: valuesOf(fields),
  };
});
type Posted = z.infer<typeof Input> & { page: FormPage };
type Outcome = ActionOutcome<RegisterOutcome>;

/** Success: remember the key, go to the credential page (replace: spec §2.1). */
async function navigate(p: Posted, location: string, secret: string, more: CookieWrite[] = []): Promise<Outcome> {
  const cookies = [...more];
  if (IDEM_KEY.test(p.idem)) {
    cookies.push({ name: IDEM_COOKIE, value: await rememberResult(p.idem, location, secret), path: '/api/register', maxAge: IDEM_MAX_AGE_S });
  }
  cookies.push({ name: FLASH_COOKIE, value: null }, { name: DRAFT_COOKIE, value: null, path: formPagePath(p.page) });
  return { kind: 'navigate', location, cookies, data: { outcome: 'navigate', location, replace: true } };
}

/** A refusal of our own, already in the page language (no upstream text to map). */
function ownRefusal(message: string, code: number): Outcome {
  return { kind: 'notice', notice: { tone: 'error', key: null, text: message }, code, data: { outcome: 'refused', message } };
}

/**
 * The upstream refused: what it said in the page language, as the lookup's refusals
 * (src/lib/page/upstream-message.ts): a known refusal is its catalogue text, any other the
 * translated lead sentence with the upstream's words (cut) under it; every value kept.
 * `empty`: the text when the upstream said nothing.
 */
function upstreamRefused(code: number, msg: string | null | undefined, empty: RefusalKey, t: ActionContext['t']): Outcome {
  const read = readRefusal(code, msg, REGISTER_REFUSALS);
  const view = read.key === 'error.generic' ? { ...read, key: empty } : read;
  const message = refusalText(view, t);
  return {
    kind: 'notice',
    notice: { tone: 'error', key: view.key, vars: view.vars, text: view.text },
    code,
    data: { outcome: 'refused', message },
  };
}

/**
 * No verified contact for this form: an expired one (the browser still holds the signed
 * cookie, past its form window) is told so, with its contact filled in on the lookup; a missing
 * one is asked to verify.
 */
async function verifyAgain(p: Posted, secret: string, ctx: ActionContext): Promise<Outcome> {
  const old = provenFor(await expiredContact(ctx.cookies[CONTACT_COOKIE], secret, ctx.now).catch(() => null), p.page.params.expoId);
  const key = old ? 'form.expired' : 'form.verifyFirst';
  const location = verifyAgainPath(p.page, p.back);
  return {
    kind: 'notice',
    notice: { tone: 'info', key, text: null },
    to: location,
    values: old ? lookupValues(old) : {},
    // the island goes to the lookup itself, which shows the notice with the contact filled in
    flashWithJson: true,
    cookies: [{ name: DRAFT_COOKIE, value: encodeFlash({ path: p.back, values: p.values }), path: formPagePath(p.page), maxAge: DRAFT_MAX_AGE_S }],
    code: 401,
    data: { outcome: 'navigate', location, replace: false },
  };
}

export const register = defineAction({
  path: '/api/register',
  bodyLimit: 64 * 1024,
  input: Input,
  back: backOf,
  keep: valuesOf,
  // a refused post's values survive a reload of the form without JavaScript (issue 30)
  draftPath(fields) {
    const page = formPageOf(fields['route'] ?? '', fields['path'] ?? '');
    return page ? formPagePath(page) : null;
  },
  faultData: (message: string): RegisterOutcome => ({ outcome: 'refused', message }),
  async run(posted, ports: RegisterPorts, ctx): Promise<Outcome> {
    const { t } = ctx;
    if (!posted.page) return { kind: 'broken', message: t('api.badPage') };
    // The details page (`/userInfo`) shows; it posts nothing.
    if (posted.page.kind === 'details') return { kind: 'broken', message: t('api.badPage') };
    const p: Posted = { ...posted, page: posted.page };
    const { page } = p;
    const { secret, upstream } = ports;

    // The verified contact of this expo is required (second forms: with their reference), in
    // the form's own window (src/lib/lookup/contact-cookie.ts), not only the 10 minutes after the proof.
    const vc = provenFor(await verifyContact(ctx.cookies[CONTACT_COOKIE], secret, ctx.now, 'register'), page.params.expoId);
    if (!vc || (page.kind === 'secondForm' && vc.secondForm === undefined)) return verifyAgain(p, secret, ctx);

    // A retry of a form view that already registered goes to the same credential.
    const recalled = await recalledResult(ctx.cookies[IDEM_COOKIE], p.idem, secret);
    if (recalled) return navigate(p, recalled, secret);

    // A correction (`/reForm`) changes only a registration this contact's own lookup found
    // (docs/upstream.md "Who owns a registration"; the upstream checks the owner again).
    if (page.kind === 'correct' && !ownCodes(vc).includes(p.euCode)) {
      return ownRefusal(t('forms2.notYours'), 404);
    }

    const second = page.kind === 'secondForm' ? vc.secondForm : undefined;
    // The second form is its own customer url's form (spec §4: userId, urlsId).
    const urlsId = second?.urlsId ?? page.params.fId;
    const config = await upstream.getCustomerId({ expoId: page.params.expoId, fId: urlsId, ty: page.params.ty });
    if (!config.ok) return upstreamRefused(config.code, config.msg, 'search.otherError', t);
    const fields = fieldsFor(page.kind, parseFormDefinition(config.data.customerForm).fields);
    const lock = contactLock(fields, vc, page.params.expoId);
    const checked = validateForm(fields, { ...p.values, ...lock?.values }, { lang: ctx.lang as Parameters<typeof validateForm>[2]['lang'] });
    if (!checked.ok) {
      const { field, name, message: key } = checked.failure;
      const message = t(key);
      // Without JavaScript every failing field comes back at once, each with its own message.
      const first: FieldError = { field: name, key, text: null };
      const rest = checked.failures.slice(1).map((f): FieldError => ({ field: f.name, key: f.message, text: null }));
      return { kind: 'invalid', errors: [first, ...rest], data: { outcome: 'invalid', field, name, message } };
    }
    const data: Record<string, unknown> = { ...checked.data, ...lock?.data };
    const activityId = config.data.activity?.id;
    if (typeof activityId === 'number' && activityId > 0) data['activityId'] = activityId;
    if (second) data['userId'] = second.userId;
    if (updatesExisting(page.kind) || p.update) data['update'] = true;
    if (namesRegistration(page.kind) && p.euCode) data['euCode'] = p.euCode;
    // spec §7 getForm: the label goes on only when the organiser confirms it for this url now
    // (the posted value is never trusted); an unknown one is dropped silently.
    if (takesDefine(page.kind) && p.define !== '') {
      const define = await confirmedDefine(upstream, { expoId: page.params.expoId, fId: urlsId, raw: p.define });
      if (define) data['euDefine'] = define.define;
    }

    const limited = await ports.countRegister(vc);
    if (limited) return limitOutcome(limited);
    // spec §7: the haisi family registers through its own calls (src/lib/expo/haisi.ts);
    // exhiCustomerUser/addExhiUserInfor is the exhibitor's registration (class 2, spec §3).
    const call = registerCall(page.variant, data['update'] === true);
    const added =
      page.kind === 'exhibitor'
        ? await upstream.addExhiUserInfor({ expoId: page.params.expoId, urlsId, values: data })
        : await upstream.addUserInfo({ expoId: page.params.expoId, urlsId, values: data, ...(call === 'addUserInfo' ? {} : { call }) });
    if (added.ok) {
      // the new registration is this contact's own, so its credential page shows its details.
      const own = await addOwnCode(ctx.cookies[CONTACT_COOKIE], secret, added.data.euCode, ctx.now).catch(() => null);
      const location = successPath({ variant: page.variant, urlId: page.params.fId, euCode: added.data.euCode, expoId: page.params.expoId, fId: page.params.fId, f: p.f });
      return navigate(p, location, secret, own ? [{ name: CONTACT_COOKIE, value: own.value, maxAge: own.maxAge }] : []);
    }
    if (added.kind === 'already-registered') {
      // spec §5: the update prompt; "do not update" goes back to the lookup (the existing credential is found there).
      const message = t('form.updatePrompt');
      return {
        kind: 'notice',
        notice: { tone: 'info', key: 'form.updatePrompt', text: null },
        code: 20001,
        data: { outcome: 'update', message, noUpdate: lookupPagePath(page) },
      };
    }
    return upstreamRefused(added.code, added.msg, 'error.generic', t);
  },
});
