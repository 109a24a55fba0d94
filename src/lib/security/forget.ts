/**
 * "Forget this device": what a shared or borrowed phone must drop when its
 * visitor asks, as data. `POST /api/forget` (functions/api/forget.ts) expires every cookie below
 * and sends {@link CLEAR_SITE_DATA}; the service worker empties its caches on the same post
 * (src/lib/page/sw-script.ts).
 *
 * The language cookie (`_h5_lang`) is kept on purpose: it names no one, and the next page (and
 * the next visitor) should still read the language the phone was set to.
 */
import { CONTACT_COOKIE } from '../lookup/contact-cookie';
import { DRAFT_COOKIE, FLASH_COOKIE } from '../page/flash';
import { BIND_COOKIE, TICKET_COOKIE } from './friction';
import { IDEM_COOKIE } from '../form/idempotency';
import { PLEDGE_COOKIE } from '../seat/pledge';
import { SENT_COOKIE, SENT_TO_COOKIE } from '../lookup/resend';
import { BYPASS_PROVE_COOKIE } from '../lookup/page';
import { resolveFormPage } from '../form/page';
import { matchRoute, routePath, type PathIds } from '../core/routes';
import { variantByExpoId, type Variant } from '../core/variants';
import { gateCookieName } from '../gate/keys';

/**
 * `Clear-Site-Data` (W3C Clear Site Data §3.1) of the forget reply: `"cache"` drops the browser's
 * HTTP cache of this origin (QR images), `"storage"` its storage: the service worker's Cache
 * Storage and registration, local and session storage (the lookup island's spec §3 keys).
 * Not `"cookies"`: that type clears the cookies of the whole registrable domain, which on an
 * organiser's own domain would sign the visitor out of its other sites; ours are expired by name.
 */
export const CLEAR_SITE_DATA = '"cache", "storage"';

/** The messaging-app openid of the navigation guard (functions/middleware/guard.ts OPENID_COOKIE). */
export const OPENID_COOKIE_NAME = 'oid';
/** The guard's "silent login failed" mark (functions/middleware/guard.ts LOGIN_FAILED_COOKIE). */
export const LOGIN_FAILED_COOKIE_NAME = 'wxfail';

/** One cookie to expire: its name and the path it was set with (a cookie is only replaced on its own path). */
export interface ForgetCookie {
  name: string;
  path: string;
  /** what it holds, for the README and the reader */
  holds: string;
}

/**
 * The gate-key cookies among the request's (`gate_{expoId}`, path `/`, functions/gate.ts): one per
 * expo, so named by the request. They are this device's like the visitor's own: a gate phone
 * handed back, or a borrowed phone a key was opened on, forgets its keys too (issue 23 review);
 * staff open the staff link again to scan.
 * @example gateCookiesOf(['vc', 'gate_1308', 'gate_x']) // [{ name: 'gate_1308', path: '/', holds: … }]
 */
export function gateCookiesOf(names: Iterable<string>): ForgetCookie[] {
  const out: ForgetCookie[] = [];
  for (const name of names) {
    const id = /^gate_([1-9]\d{0,11})$/.exec(name)?.[1];
    if (id !== undefined && gateCookieName(Number(id)) === name) out.push({ name, path: '/', holds: 'a gate key of one expo (staff)' });
  }
  return out;
}

/** Every cookie of ours set on a fixed path. The registration draft's path is the form's own: {@link draftPaths}. */
export const FORGET_COOKIES: readonly ForgetCookie[] = [
  { name: CONTACT_COOKIE, path: '/', holds: 'the verified contact and the registration codes its lookup found' },
  { name: SENT_TO_COOKIE, path: '/', holds: 'the contact a code was last sent to (pre-fills the lookup)' },
  { name: SENT_COOKIE, path: '/', holds: 'when the last code was sent (the resend countdown)' },
  { name: FLASH_COOKIE, path: '/', holds: 'a no-JavaScript round trip: typed values and a message' },
  { name: PLEDGE_COOKIE, path: '/', holds: 'the expos whose pledge this browser made' },
  { name: IDEM_COOKIE, path: '/api/register', holds: 'the credential a form post already led to' },
  { name: OPENID_COOKIE_NAME, path: '/', holds: 'the messaging-app openid' },
  { name: LOGIN_FAILED_COOKIE_NAME, path: '/', holds: 'a failed silent login, for five minutes' },
  { name: BIND_COOKIE, path: '/', holds: 'which contact the last code went to from this browser' },
  { name: TICKET_COOKIE, path: '/', holds: 'a wait ticket of the challenge without JavaScript' },
  { name: BYPASS_PROVE_COOKIE, path: '/', holds: 'that the exhibitor site asks this browser for a code' },
];

/** What forgetting from a page leads to: where to land, and the draft cookies of that expo's forms. */
export interface ForgetTarget {
  /** the lookup page of the expo the visitor was on (the done message shows there); null: none */
  lookup: string | null;
  /** paths of the registration and buyer forms of that expo whose `draft` cookie to expire */
  draftPaths: string[];
  /** the `draft` cookies to expire: one per path */
  drafts: ForgetCookie[];
}

const NOWHERE: ForgetTarget = { lookup: null, draftPaths: [], drafts: [] };

/** The form routes of a variant (or the generic ones). */
function formRoutes(variant: Variant | null): string[] {
  if (!variant) return ['form', 'proving', 'repairForm'];
  const { form, extraForms, rules } = variant;
  return [...new Set([form, ...extraForms, ...[rules.secondFormOn20003, rules.supplementWhenNoActivity].filter((r): r is string => r !== null)])];
}

/**
 * The forget target of the page a forget form was posted from (a path on this site): its expo's
 * lookup, and the paths where a registration draft of that expo may sit (`draft` is set on the
 * form's own path, functions/api/register.ts). A credential page carries no visitor type, so both
 * the plain and the `visitor` form paths are named.
 * @example forgetTarget('/IEAESearch/21308/MTMwOA/visitor').lookup // '/IEAESearch/21308/MTMwOA/visitor'
 */
export function forgetTarget(back: string | null): ForgetTarget {
  const match = back ? matchRoute(back.split('?')[0] ?? '') : null;
  if (!match) return NOWHERE;
  let variant: Variant | null = null;
  let ids: PathIds[];
  // the lvYun lookup and list forget back to the lvYun lookup (src/lib/core/routes.ts Flavour)
  const flavour = match.screen === 'search' || match.screen === 'applyList' ? match.flavour : undefined;
  switch (match.screen) {
    case 'search':
      variant = match.variant;
      ids = [match.params];
      break;
    case 'applyList':
    case 'home':
    case 'seat':
    case 'ticket':
      ids = [match.params];
      break;
    case 'credential':
      variant = match.variant;
      ids = ['visitor', ''].map((ty) => ({ fId: match.params.fId, expoId: match.params.expoId, ty }));
      break;
    case 'form': {
      // a form page shows the lookup when the contact is not verified (FormScreen)
      const page = resolveFormPage(match.route, match.rest, match.variant);
      if (!page) return NOWHERE;
      variant = page.variant;
      ids = [page.params];
      break;
    }
    default:
      return NOWHERE;
  }
  const [first] = ids;
  if (!first) return NOWHERE;
  const lookup = routePath({ screen: 'search', variant, params: first, ...(flavour ? { flavour } : {}) });
  // The expo's own variant has its own form routes, whichever page the visitor forgot from.
  const forms = [...new Set([...formRoutes(variant), ...formRoutes(variantByExpoId(first.expoId)), ...formRoutes(null)])];
  // ... and the buyer form's (`/ticketForm/…`: src/lib/actions/order.ts keeps its draft there, issue 30)
  const draftPaths = ids.flatMap((params) => [...forms.map((route) => routePath({ screen: 'form', route, params })), routePath({ screen: 'ticket', which: 'ticketForm', params })]);
  const paths = [...new Set(draftPaths)];
  return { lookup, draftPaths: paths, drafts: paths.map((path) => ({ name: DRAFT_COOKIE, path, holds: 'what a form kept while its contact was confirmed again' })) };
}
