/**
 * The reference upstream: docs/upstream.md's contract on D1, so the product runs whole on a fresh
 * machine and tests run against it. Its one face is `createReference(env)`: `fetch` answers a
 * call in-process (the app injects it into functions/upstream when `UPSTREAM_URL` is empty),
 * `scheduled` is the Cron Trigger's sweep, and `routes` is its HTTP face, which the app mounts at
 * the root: `/custom/*` (every call), `/auth/*` (the seat lookup's auth host), `/wx/*` (the
 * messaging app: not served) and the development routes `/dev/pay/*` (the payment simulator)
 * and `/dev/outbox*` (DEV_OUTBOX only).
 *
 * It depends on the contract (functions/upstream/contract) and its own rules (rules.ts), never
 * on the edge's src/lib. Every `/custom` reply is the `{ code, msg, data }` envelope with HTTP
 * 200 (envelope.ts), including unknown calls, unknown expos and bad input.
 */
import { Hono, type Context, type ErrorHandler, type Handler } from 'hono';
import type { AppEnv } from '../env';
import { HealthPath, Path, SeatPath, SitePath, TicketPath } from '../upstream/contract';
import { addUserInfo } from './calls/addUserInfo';
import { camera5 } from './calls/camera5';
import { captchaVerify } from './calls/captchaVerify';
import { getCustomerId } from './calls/getCustomerId';
import { deleteHealth, healthImage, listHealth, uploadHealth } from './calls/health';
import { lookup } from './calls/lookup';
import * as orders from './calls/orders';
import { queryCustomerCode } from './calls/queryCustomerCode';
import * as refunds from './calls/refunds';
import { checkUserByName, getImage, getUserCompanyList, getUserSeatDetail, pageActivityType, selectUserSeat } from './calls/seats';
import { queryFromUserExpoId } from './calls/secondForm';
import { selectAesKey } from './calls/selectAesKey';
import { SEND_CALLS, sendCode } from './calls/sendCode';
import * as sites from './calls/sites';
import * as tickets from './calls/tickets';
import { RefCode, reply } from './envelope';
import { type RefEnv, withExpo } from './expo';
import { outbox } from './outbox';
import { paySimulator } from './pay-simulator';
import { payNotify } from './payments';
import { scheduledSweep } from './sweep';

/** One call: method, path relative to its root, handler. */
type Route = readonly ['get' | 'post' | 'delete', string, Handler<RefEnv>];

/** The calls under `/custom`, by area (docs/upstream.md "Calls" … "Site booking"). */
const CUSTOM: readonly Route[] = [
  ['get', Path.selectAESKey, selectAesKey],
  ['get', Path.getCustomerId, getCustomerId],
  ...Object.entries(SEND_CALLS).map(([path, call]): Route => ['post', path, sendCode(call)]),
  ['get', Path.captchaVerify, captchaVerify],
  ['get', Path.queryUserExpoId, lookup('phone')],
  ['get', Path.queryEmailUserExpoId, lookup('email')],
  ['get', Path.queryFromUserExpoId, queryFromUserExpoId],
  ['get', Path.queryCustomerCode, queryCustomerCode],
  ['post', Path.addUserInfo, addUserInfo],
  ['post', Path.camera5, camera5],
  ['post', HealthPath.upload, uploadHealth],
  ['get', HealthPath.list, listHealth],
  ['delete', HealthPath.delete, deleteHealth],
  ['get', HealthPath.image, healthImage],
  ['get', TicketPath.selectUrlsTicketList, tickets.selectUrlsTicketList],
  ['get', TicketPath.checkSurplusTicket, tickets.checkSurplusTicket],
  ['get', TicketPath.selectDiscountTicketByCode, tickets.selectDiscountTicketByCode],
  ['get', TicketPath.findUserBuyOrderNumByPhoneExpoId, tickets.findUserBuyOrderNumByPhoneExpoId],
  ['post', TicketPath.createOrderNew, orders.createOrderNew],
  ['post', TicketPath.doUnifiedOrder, orders.doUnifiedOrder],
  ['get', TicketPath.getOrderStatus, orders.getOrderStatus],
  ['get', TicketPath.findOrderListByPhone, orders.findOrderListByPhone],
  ['post', TicketPath.deleteOrderById, orders.deleteOrderById],
  ['get', TicketPath.ifOpenRefund, refunds.ifOpenRefund],
  ['post', TicketPath.WxRefundJSAPIByOrderNo, refunds.WxRefundJSAPIByOrderNo],
  ['post', TicketPath.cancelRefundByOrderNo, refunds.cancelRefundByOrderNo],
  ['post', TicketPath.payNotify, payNotify],
  ['get', SitePath.selectSiteTypeList, sites.selectSiteTypeList],
  ['get', SitePath.selectSiteDateList, sites.selectSiteDateList],
  ['post', SitePath.addExpoUserSite, sites.addExpoUserSite],
  ['get', SitePath.selectExpoUserSiteId, sites.selectExpoUserSiteId],
  ['post', SitePath.deleteExpoUserSite, sites.deleteExpoUserSite],
];

/** The auth host's calls (docs/upstream.md "Seat lookup": `{UPSTREAM_AUTH_URL}/auth`). */
const AUTH: readonly Route[] = [
  ['get', SeatPath.getUserCompanyList, getUserCompanyList],
  ['get', SeatPath.checkUserByName, checkUserByName],
  ['get', SeatPath.getUserSeatDetail, getUserSeatDetail],
  ['get', SeatPath.pageActivityType, pageActivityType],
  ['get', SeatPath.selectUserSeat, selectUserSeat],
  ['get', SeatPath.getImage, getImage],
];

/** Unexpected failures still answer an envelope; the detail goes to the log, not the user. */
const onError: ErrorHandler = (err, c) => {
  console.error('[reference upstream]', err);
  return reply(c, RefCode.INTERNAL, 'internal error in the reference upstream; see the Worker log');
};

function unknownCall(c: Context): Response {
  return reply(c, RefCode.NOT_FOUND, 'unknown call');
}

/** One root's calls; every call first reads its expo (withExpo); anything else is an unknown call. */
function root(routes: readonly Route[]): Hono<RefEnv> {
  const app = new Hono<RefEnv>();
  app.onError(onError);
  for (const [method, path, handler] of routes) app.on(method.toUpperCase(), path, withExpo, handler);
  // Registered last: reached only when no call above matched (path or method).
  app.all('*', unknownCall);
  return app;
}

/** The reference's HTTP face; the Worker mounts it at `/`. */
const routes = new Hono<{ Bindings: AppEnv }>();
routes.onError(onError);
routes.route('/custom', root(CUSTOM));
routes.route('/auth', root(AUTH));
routes.all('/wx/*', unknownCall);
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
