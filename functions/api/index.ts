import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { bodyLimit, OTHER_API_BODY_LIMIT } from '../middleware/body-limit';
import { sameOrigin } from '../middleware/same-origin';
import { lang } from './lang';
import { lookup } from './lookup';
import { register } from './register';
import { camera } from './camera';
import { seats } from './seats';
import { pledge } from './pledge';
import { health, healthTooLarge } from './health';
import { order } from './order';
import { site } from './site';
import { bus } from './bus';
import { forget } from './forget';
import { share } from './share';
import { gate, GATE_BODY_LIMITS, gateBodyRead, noApi } from './gate';
import type { Action } from '../../src/lib/actions/outcome';
import { lang as langAction } from '../../src/lib/actions/lang';
import { lookup as lookupAction, sendCode } from '../../src/lib/actions/lookup';
import { register as registerAction } from '../../src/lib/actions/register';
import { camera as cameraAction } from '../../src/lib/actions/camera';
import { forget as forgetAction } from '../../src/lib/actions/forget';
import { pledge as pledgeAction } from '../../src/lib/actions/pledge';
import { healthDelete, healthUpload } from '../../src/lib/actions/health';
import { discount, order as orderAction, orderAction as orderActionAction } from '../../src/lib/actions/order';
import { seatCompanies, seatDetail, seatPerson } from '../../src/lib/actions/seats';
import { site as siteAction } from '../../src/lib/actions/site';
import { bus as busAction } from '../../src/lib/actions/bus';
import { gateScan } from '../../src/lib/actions/gate';

/**
 * The edge API, mounted at /api (DESIGN.md part 3). Accepts JSON (islands) and form posts
 * (no JavaScript: answers 303 to the next page).
 *
 * Before any route: every body is read bounded (413 over the route's limit), posts
 * from another site are refused (403), and without a usable SESSION_SECRET nothing runs (503).
 */

/** The actions declared in src/lib/actions: each names its path and the largest body it takes. */
const ACTIONS: readonly Pick<Action<unknown, unknown>, 'path' | 'bodyLimit'>[] = [
  langAction,
  sendCode,
  lookupAction,
  registerAction,
  cameraAction,
  forgetAction,
  pledgeAction,
  healthUpload,
  healthDelete,
  orderAction,
  orderActionAction,
  discount,
  seatCompanies,
  seatDetail,
  seatPerson,
  siteAction,
  busAction,
  gateScan,
];

/** The largest body each route takes; a real form is far below these. */
export const API_BODY_LIMITS: Readonly<Record<string, number>> = {
  ...Object.fromEntries(ACTIONS.map((a) => [a.path, a.bodyLimit])),
  ...GATE_BODY_LIMITS,
};

/** SESSION_SECRET signs the verified-contact cookie: below this many characters it is refused. */
export const MIN_SESSION_SECRET = 16;

export const api = new Hono<{ Bindings: AppEnv }>();
const limits = new Map(
  Object.entries({ ...API_BODY_LIMITS, '*': OTHER_API_BODY_LIMIT }).map(([path, maxBytes]) => [
    path,
    // A photo picked without JavaScript may pass 5 MB: the page comes back with the message (health.ts).
    bodyLimit({ maxBytes, ...(path === '/api/health' ? { tooLarge: healthTooLarge } : {}) }),
  ]),
);
// The gate's own limits are staff's: its routes read up to the larger of theirs and the unknown
// path's, and functions/api/gate.ts answers a body over a limit by the key (issue 23 review).
const gateRead = new Map(Object.entries(GATE_BODY_LIMITS).map(([path, maxBytes]) => [path, gateBodyRead(maxBytes)]));
api.use('*', async function bounded(c, next) {
  const path = new URL(c.req.url).pathname;
  const limit = gateRead.get(path) ?? limits.get(path) ?? limits.get('*');
  return limit ? limit(c, next) : next();
});
api.use('*', sameOrigin());
api.get('/health', function alive(c) {
  return c.json({ ok: true });
});
api.use('*', async function configured(c, next) {
  if ((c.env.SESSION_SECRET ?? '').length >= MIN_SESSION_SECRET) return next();
  // An operator error, said once per request in the Worker log; the visitor gets a plain answer.
  console.error(`SESSION_SECRET is missing or shorter than ${MIN_SESSION_SECRET} characters: set it with \`wrangler secret put SESSION_SECRET\` (README "Security").`);
  return c.json({ code: 503, msg: 'This site is not ready yet. Please try again later.', data: null }, 503);
});
api.route('/lang', lang);
api.route('/', lookup);
api.route('/', register);
api.route('/', camera);
api.route('/', seats);
api.route('/', pledge);
api.route('/', health);
api.route('/', order);
api.route('/', site);
api.route('/', bus);
api.route('/', forget);
api.route('/', share);
// Staff only (functions/api/gate.ts): without a valid gate key, the same 404 as the catch-all below.
api.route('/gate', gate);
// Mounted sub-apps do not own notFound: a catch-all keeps unknown API paths out of the pages.
api.all('*', noApi);
