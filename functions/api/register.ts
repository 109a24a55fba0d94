/**
 * `POST /api/register` (spec §2.3 form routes, §4, §5; docs/upstream.md addUserInfo): registers the
 * form of any form route. JSON from the FormEnhance island, or a plain form post (no JS).
 *
 * - The page is resolved from its own path (`route` + `path`), never from a posted kind or expo.
 * - Registering needs the verified contact of this expo (cookie `vc`): it is what the form
 *   locks and what the upstream receives, whatever was posted for it. Without it the visitor is
 *   sent to the lookup page to verify first.
 * - Success → the credential page (303, or JSON navigate with replace). 20001 → the update
 *   prompt (spec §5). Any other refusal → the server's message; nothing typed is lost (flash).
 * - A form view's idempotency key is remembered with its result (signed cookie, 10 min).
 * - The contact's confirmation expired (or is gone) mid-form: to the lookup with
 *   `?next=` this form, the contact filled in and a message saying why; every typed value kept
 *   (the island's session storage, and the `draft` cookie for the form page), so the new code
 *   leads back to the form as it was.
 * - A refusal of the form's values names every failing field at once.
 * - Registrations are counted per verified contact and per address before the upstream writes
 *   anything (`LIMIT_REGISTERS_*`); over a limit the form comes back with every
 *   value. Whose registration it is, and the neutral answer to a collision with someone else's,
 *   is the upstream's rule (docs/upstream.md "Who owns a registration").
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { badRequest } from './bad-request';
import { faultJson, upstreamFault } from './fault';
import { readInput, type Input } from './input';
import { checkRegisterLimits, limitedReply } from '../limits'; // abuse limits
import { addOwnCode, CONTACT_COOKIE, expiredContact, provenFor, verifyContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import {
  displayText,
  DRAFT_COOKIE,
  DRAFT_MAX_AGE_S,
  encodeFlash,
  FLASH_COOKIE,
  FLASH_MAX_AGE_S,
  type FlashInput,
} from '../../src/lib/page/flash';
import { contactLock } from '../../src/lib/form/contact';
import { IDEM_COOKIE, IDEM_KEY, IDEM_MAX_AGE_S, recalledResult, rememberResult } from '../../src/lib/form/idempotency';
import {
  fieldsFor,
  formPagePath,
  lookupPagePath,
  resolveFormPage,
  updatesExisting,
  verifyAgainPath,
  type FormPage,
} from '../../src/lib/form/page';
import { parseFormDefinition } from '../../src/lib/form/schema';
import { validateForm } from '../../src/lib/form/validation';
import { successPath } from '../../src/lib/lookup/lookup';
import { matchRoute } from '../../src/lib/page/routes';

type Ctx = Context<{ Bindings: AppEnv }>;

/** What the island receives (`{code, msg, data}`, spec §7). */
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

/** Hidden fields the form posts about itself; everything else is a form value. */
const PAGE_FIELDS = ['route', 'path', 'f', 'idem', 'e', 'update'] as const;

/** Longest value kept from a post (the flash cookie's limit; field limits are the schema's). */
const MAX_VALUE = 2000;

interface Posted {
  input: Input;
  page: FormPage;
  /** the page path: where a no-JS post comes back to */
  back: string;
  f: string;
  idem: string;
  /** the registration a repair or supplement form completes (its euCode), if the page knew it */
  euCode: string;
  update: boolean;
  values: Record<string, string>;
}

async function parse(c: Ctx): Promise<Posted | Response> {
  const input = await readInput(c);
  const fields = input.fields;
  const route = (fields['route'] ?? '').trim();
  const path = (fields['path'] ?? '').trim();
  const match = /^[A-Za-z][A-Za-z0-9]{0,40}$/.test(route) && path.length < 200 ? matchRoute(`/${route}/${path}`) : null;
  const page = match?.screen === 'form' ? resolveFormPage(match.route, match.rest, match.variant) : null;
  if (!page) {
    // A short sentence in the request's language; the posted path is not echoed.
    return badRequest(c, input, input.t('api.badPage'), input.t('app.back'));
  }
  const euCode = (fields['e'] ?? '').trim();
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (!(PAGE_FIELDS as readonly string[]).includes(k)) values[k] = v.slice(0, MAX_VALUE);
  }
  return {
    input,
    page,
    back: formPagePath(page) + (/^[A-Za-z0-9_-]{1,64}$/.test(euCode) ? `?e=${encodeURIComponent(euCode)}` : ''),
    f: (fields['f'] ?? '').slice(0, 200),
    idem: (fields['idem'] ?? '').trim(),
    euCode: /^[A-Za-z0-9_-]{1,64}$/.test(euCode) ? euCode : '',
    update: ['1', 'true', 'on'].includes((fields['update'] ?? '').trim()),
    values,
  };
}

const secure = (c: Ctx) => new URL(c.req.url).protocol === 'https:';

/** 303 back to the form with every value kept (spec §5: nothing typed is lost). */
function flashBack(c: Ctx, p: Posted, flash: Omit<FlashInput, 'path' | 'values'>, path = p.back): Response {
  setCookie(c, FLASH_COOKIE, encodeFlash({ path, values: path === p.back ? p.values : {}, ...flash }), {
    path: '/',
    maxAge: FLASH_MAX_AGE_S,
    httpOnly: true,
    sameSite: 'Lax',
    secure: secure(c),
  });
  return c.redirect(path, 303);
}

function reply(c: Ctx, data: RegisterOutcome, code = 200, msg: string | null = null): Response {
  return c.json<RegisterReply>({ code, msg, data });
}

/** Success: remember the key, go to the credential page (replace: spec §2.1). */
async function navigate(c: Ctx, p: Posted, location: string): Promise<Response> {
  if (IDEM_KEY.test(p.idem)) {
    setCookie(c, IDEM_COOKIE, await rememberResult(p.idem, location, c.env.SESSION_SECRET ?? ''), {
      path: '/api/register',
      maxAge: IDEM_MAX_AGE_S,
      httpOnly: true,
      sameSite: 'Lax',
      secure: secure(c),
    });
  }
  deleteCookie(c, FLASH_COOKIE, { path: '/' });
  deleteCookie(c, DRAFT_COOKIE, { path: formPagePath(p.page) });
  if (p.input.json) return reply(c, { outcome: 'navigate', location, replace: true });
  return c.redirect(location, 303);
}

function refused(c: Ctx, p: Posted, upstreamMessage: string, code: number): Response {
  // An upstream message of any length is cut for display.
  const message = displayText(upstreamMessage);
  if (p.input.json) return reply(c, { outcome: 'refused', message }, code, message);
  return flashBack(c, p, { notice: { tone: 'error', key: null, text: message } });
}

/**
 * The lookup values that name a contact again (`checkType` and the e-mail, or the area code and
 * the national number), so the lookup opens with it filled in.
 */
function lookupValues(vc: VerifiedContact): Record<string, string> {
  if (vc.checkType === 2) return { checkType: '2', email: vc.contact };
  const area = vc.areaCode ?? '';
  const phone = area !== '' && vc.contact.startsWith(area) ? vc.contact.slice(area.length) : vc.contact;
  return { checkType: '1', areaCode: area, phone };
}

/**
 * No verified contact for this form: an expired one (the browser still holds the
 * signed cookie, past its form window) is told so, with its contact filled in on the lookup;
 * a missing one is asked to verify. Either way the lookup returns to this form (`next`) and the
 * typed values wait for it: in the island's session storage and in the `draft` cookie.
 */
async function verifyAgain(c: Ctx, p: Posted, secret: string): Promise<Response> {
  const { t, json } = p.input;
  const old = provenFor(await expiredContact(getCookie(c, CONTACT_COOKIE), secret).catch(() => null), p.page.params.expoId);
  const key = old ? 'form.expired' : 'form.verifyFirst';
  const location = verifyAgainPath(p.page, p.back);
  setCookie(c, DRAFT_COOKIE, encodeFlash({ path: p.back, values: p.values }), {
    path: formPagePath(p.page),
    maxAge: DRAFT_MAX_AGE_S,
    httpOnly: true,
    sameSite: 'Lax',
    secure: secure(c),
  });
  setCookie(
    c,
    FLASH_COOKIE,
    encodeFlash({ path: location, values: old ? lookupValues(old) : {}, notice: { tone: 'info', key, text: null } }),
    { path: '/', maxAge: FLASH_MAX_AGE_S, httpOnly: true, sameSite: 'Lax', secure: secure(c) },
  );
  if (json) return reply(c, { outcome: 'navigate', location, replace: false }, 401, t(key));
  return c.redirect(location, 303);
}

export const register = new Hono<{ Bindings: AppEnv }>();

register.post('/register', async (c) => {
  const p = await parse(c);
  if (p instanceof Response) return p;
  const { t, json, lang } = p.input;
  const { page } = p;
  const secret = c.env.SESSION_SECRET ?? '';

  // The verified contact of this expo is required (second forms: with their reference).
  const vc: VerifiedContact | null = provenFor(
    // The form's own window (src/lib/lookup/contact-cookie.ts), not only the 10 minutes after the proof.
    await verifyContact(getCookie(c, CONTACT_COOKIE), secret, Date.now(), 'register'),
    page.params.expoId,
  );
  const verified = vc !== null && (page.kind !== 'secondForm' || vc.secondForm !== undefined);
  if (!vc || !verified) return verifyAgain(c, p, secret);

  // A retry of a form view that already registered goes to the same credential.
  const recalled = await recalledResult(getCookie(c, IDEM_COOKIE), p.idem, secret);
  if (recalled) return navigate(c, p, recalled);

  const up = upstreamFor(c.env);
  const second = page.kind === 'secondForm' ? vc.secondForm : undefined;
  // The second form is its own customer url's form (spec §4: userId, urlsId).
  const urlsId = second?.urlsId ?? page.params.fId;
  try {
    const config = await up.getCustomerId({ expoId: page.params.expoId, fId: urlsId, ty: page.params.ty });
    if (!config.ok) return refused(c, p, config.msg?.trim() || t('search.otherError'), config.code);
    const fields = fieldsFor(page.kind, parseFormDefinition(config.data.customerForm).fields);
    const lock = contactLock(fields, vc, page.params.expoId);
    const values = { ...p.values, ...lock?.values };
    const checked = validateForm(fields, values, { lang });
    if (!checked.ok) {
      const { field, name, message: key } = checked.failure;
      const message = t(key);
      if (json) return reply(c, { outcome: 'invalid', field, name, message }, 400, message);
      // Without JavaScript every failing field comes back at once, each with its own message.
      const errors = checked.failures.map((f) => ({ field: f.name, key: f.message, text: null }));
      return flashBack(c, p, { error: { field: name, key, text: null }, errors });
    }
    const data: Record<string, unknown> = { ...checked.data, ...lock?.data };
    const activityId = config.data.activity?.id;
    if (typeof activityId === 'number' && activityId > 0) data['activityId'] = activityId;
    if (second) data['userId'] = second.userId;
    if (updatesExisting(page.kind) || p.update) data['update'] = true;
    if (page.kind === 'repair' && p.euCode) data['euCode'] = p.euCode;

    // abuse limits: per verified contact and per address, before the upstream
    // writes anything; over a limit the form comes back with every value (no-JS: 303 + flash).
    const limited = await checkRegisterLimits(c, vc);
    if (limited) return limitedReply(c, limited, p.input, (notice) => flashBack(c, p, { notice }));
    const added = await up.addUserInfo({ expoId: page.params.expoId, urlsId, values: data });
    if (added.ok) {
      // the new registration is this contact's own, so its credential page shows its details.
      const own = await addOwnCode(getCookie(c, CONTACT_COOKIE), secret, added.data.euCode).catch(() => null);
      if (own) setCookie(c, CONTACT_COOKIE, own.value, { path: '/', maxAge: own.maxAge, httpOnly: true, sameSite: 'Lax', secure: secure(c) });
      const location = successPath({
        variant: page.variant,
        urlId: page.params.fId,
        euCode: added.data.euCode,
        expoId: page.params.expoId,
        fId: page.params.fId,
        f: p.f,
      });
      return navigate(c, p, location);
    }
    if (added.kind === 'already-registered') {
      // spec §5: the update prompt; "do not update" goes back to the lookup (the existing credential is found there).
      const message = t('form.updatePrompt');
      const noUpdate = lookupPagePath(page);
      if (json) return reply(c, { outcome: 'update', message, noUpdate }, 20001, message);
      return flashBack(c, p, { notice: { tone: 'info', key: 'form.updatePrompt', text: null } });
    }
    return refused(c, p, added.msg?.trim() || t('error.generic'), added.code);
  } catch (e) {
    // spec §8 (./fault.ts): the organiser's 403/404/405/5xx passed through, else 504 or 502.
    const fault = upstreamFault(e, t, '/api/register');
    if (!json) return flashBack(c, p, { notice: fault.notice });
    if ('error' in fault.body) return faultJson(c, fault);
    const message = fault.body.msg;
    return c.json<RegisterReply>({ code: fault.body.code, msg: message, data: { outcome: 'refused', message } }, fault.status);
  }
});
