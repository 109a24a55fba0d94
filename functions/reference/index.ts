/**
 * The reference upstream: docs/upstream.md's contract on D1, so the product runs whole on a fresh
 * machine and tests run against it. Its one face is `createReference(env)`: `fetch` answers a
 * call in-process (the app injects it into functions/upstream when `UPSTREAM_URL` is empty),
 * `scheduled` is the Cron Trigger's sweep, and `routes` is its HTTP face, which the app mounts at
 * the root: `/custom/*` (every call), `/auth/*` (the seat lookup's auth host), `/wx/*` (the
 * messaging app: the app id only, for the share card) and the development routes `/dev/pay/*` (the payment simulator)
 * and `/dev/outbox*` (DEV_OUTBOX only).
 *
 * It depends on the contract (src/lib/contract) and its own rules (rules.ts), never
 * on the edge's src/lib. Every `/custom` reply is the `{ code, msg, data }` envelope with HTTP
 * 200 (envelope.ts), including unknown calls, unknown expos and bad input.
 */
import { Hono, type Context, type ErrorHandler, type Handler } from 'hono';
import type { AppEnv } from '../env';
import { BusPath, CheckinPath, HealthPath, PagesPath, Path, SeatPath, SharePath, SitePath, TicketPath, WxPath } from '../../src/lib/contract';
import { addExhiUserInfor } from './calls/addExhiUserInfor';
import { addUserInfo } from './calls/addUserInfo';
import { addBusUser, cancelBusUser, selectBusList, selectBusUser } from './calls/bus';
import { camera5 } from './calls/camera5';
import { checkInList, checkInLog, checkInStats, redeemCode } from './calls/checkin';
import { captchaVerify } from './calls/captchaVerify';
import { getCustomerId } from './calls/getCustomerId';
import { addHai, queryHaiPhone } from './calls/haisi';
import { deleteHealth, healthImage, listHealth, uploadHealth } from './calls/health';
import { lookup } from './calls/lookup';
import { getArticleList, queryCustomerChannelId } from './calls/pages';
import { createOrderNew, deleteOrderById, doUnifiedOrder, findOrderListByPhone, getOrderStatus } from './calls/orders';
import { queryCustomerCode } from './calls/queryCustomerCode';
import { WxRefundJSAPIByOrderNo, cancelRefundByOrderNo, ifOpenRefund } from './calls/refunds';
import * as seats from './calls/seats';
import { queryFromUserExpoId } from './calls/secondForm';
import { selectAesKey } from './calls/selectAesKey';
import { ajaxData, checkExpo, getwxAppId } from './calls/share';
import { getForm } from './calls/define';
import { SEND_CALLS, sendCode } from './calls/sendCode';
import { addExpoUserSite, deleteExpoUserSite, selectExpoUserSiteId, selectSiteDateList, selectSiteTypeList } from './calls/sites';
import * as tickets from './calls/tickets';
import { RefCode, reply } from './envelope';
import { type RefEnv, withExpo } from './expo';
import { outbox } from './outbox';
import { paySimulator } from './pay-simulator';
import { payNotify } from './payments';
import { scheduledSweep } from './sweep';

/** Unexpected failures still answer an envelope; the detail goes to the log, not the user. */
const onError: ErrorHandler = (err, c) => {
  console.error('[reference upstream]', err);
  return reply(c, RefCode.INTERNAL, 'internal error in the reference upstream; see the Worker log');
};

function unknownCall(c: Context): Response {
  return reply(c, RefCode.NOT_FOUND, 'unknown call');
}

/**
 * Serves calls of one method on a root: `handlers` is keyed by the call's name in the contract's
 * path table, so a name the contract does not know does not compile. Every call first reads its
 * expo (withExpo).
 */
function serve<P extends Readonly<Record<string, string>>>(
  app: Hono<RefEnv>,
  method: 'GET' | 'POST' | 'DELETE',
  paths: P,
  handlers: Partial<Record<keyof P, Handler<RefEnv>>>,
): void {
  for (const [name, handler] of Object.entries(handlers)) {
    const path = paths[name];
    if (path !== undefined && typeof handler === 'function') app.on(method, path, withExpo, handler);
  }
}

function root(): Hono<RefEnv> {
  const app = new Hono<RefEnv>();
  app.onError(onError);
  return app;
}

/** The calls under `/custom`, by area (docs/upstream.md "Calls" … "Health upload"). */
const custom = root();
serve(custom, 'GET', Path, { selectAESKey: selectAesKey, getCustomerId, captchaVerify, queryFromUserExpoId, queryCustomerCode });
serve(custom, 'GET', Path, { queryUserExpoId: lookup('phone'), queryEmailUserExpoId: lookup('email') });
for (const [path, call] of Object.entries(SEND_CALLS)) custom.on('POST', path, withExpo, sendCode({ ...call, path }));
serve(custom, 'POST', Path, { addUserInfo, camera5, addExhiUserInfor });
// The haisi family (docs/upstream.md "Haisi").
serve(custom, 'GET', Path, { queryHaiPhone });
serve(custom, 'POST', Path, { addHaiUserInfo: addHai('addHaiUserInfo'), addHaiUserInfoNew: addHai('addHaiUserInfoNew'), addHaiExpoUserNew: addHai('addHaiExpoUserNew') });
serve(custom, 'POST', HealthPath, { upload: uploadHealth });
serve(custom, 'GET', HealthPath, { list: listHealth, image: healthImage });
serve(custom, 'DELETE', HealthPath, { delete: deleteHealth });
serve(custom, 'GET', TicketPath, tickets);
serve(custom, 'POST', TicketPath, { createOrderNew, doUnifiedOrder, deleteOrderById, payNotify });
serve(custom, 'GET', TicketPath, { getOrderStatus, findOrderListByPhone, ifOpenRefund });
serve(custom, 'POST', TicketPath, { WxRefundJSAPIByOrderNo, cancelRefundByOrderNo });
serve(custom, 'GET', SitePath, { selectSiteTypeList, selectSiteDateList, selectExpoUserSiteId });
serve(custom, 'POST', SitePath, { addExpoUserSite, deleteExpoUserSite });
serve(custom, 'GET', PagesPath, { getArticleList, queryCustomerChannelId });
serve(custom, 'GET', BusPath, { selectBusList, selectBusUser });
serve(custom, 'POST', BusPath, { addBusUser, cancelBusUser });
serve(custom, 'GET', SharePath, { ajaxData });
serve(custom, 'POST', CheckinPath, { redeemCode });
serve(custom, 'GET', CheckinPath, { checkInList, checkInStats, checkInLog });
// Registered last: reached only when no call above matched (path or method).
custom.all('*', unknownCall);

/** The auth host's calls (docs/upstream.md "Seat lookup": `{UPSTREAM_AUTH_URL}/auth`). */
const auth = root();
serve(auth, 'GET', SeatPath, seats);
auth.all('*', unknownCall);

/**
 * The messaging app's calls (docs/upstream.md "Messaging app"): the app id (only with
 * REF_WX_APP_ID) and the expo check, for the share card; a url's custom labels (getForm); no silent login (getOpenId answers 404).
 */
const wx = root();
serve(wx, 'GET', WxPath, { getwxAppId, checkExpo, getForm });
wx.all('*', unknownCall);

/** The reference's HTTP face; the Worker mounts it at `/`. */
const routes = new Hono<{ Bindings: AppEnv }>();
routes.onError(onError);
routes.route('/custom', custom);
routes.route('/auth', auth);
routes.route('/wx', wx);
routes.route('/dev/pay', paySimulator);
routes.route('/dev', outbox);

/** The reference upstream of one environment. */
export interface Reference {
  /** answers one request of the organiser's API in-process (same isolate, same D1) */
  fetch(request: Request): Promise<Response>;
  /** the Cron Trigger's sweep (sweep.ts): unpaid orders past their hold are written down as timed out */
  scheduled(controller: ScheduledController, ctx: ExecutionContext): void;
  /** the HTTP face with the development routes, for the app to mount at `/` */
  routes: Hono<{ Bindings: AppEnv }>;
}

/**
 * The reference upstream for an environment.
 * @example const ref = createReference(env); await ref.fetch(new Request('http://reference.invalid/custom/…'));
 */
export function createReference(env: AppEnv): Reference {
  return {
    fetch: async (request) => routes.fetch(request, env),
    scheduled: (controller, ctx) => scheduledSweep(controller, env, ctx),
    routes,
  };
}

export default routes;
