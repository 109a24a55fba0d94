/**
 * The reference upstream: docs/upstream.md's contract on D1, so the product runs whole on a fresh
 * machine and tests run against it. Mounted by the Worker at the root: `/custom/*` (every
 * call), `/auth/*` (the seat lookup's auth host), `/wx/*` (messaging-app calls, not served yet) and `/dev/outbox*` (DEV_OUTBOX only).
 *
 * Every `/custom` reply is the `{ code, msg, data }` envelope with HTTP 200 (envelope.ts),
 * including unknown calls, unknown expos and bad input.
 */
import { Hono } from 'hono';
import type { ErrorHandler } from 'hono';
import type { AppEnv } from '../env';
import { Path } from '../upstream/contract';
import { addUserInfo } from './calls/addUserInfo';
import { camera5 } from './calls/camera5';
import { captchaVerify } from './calls/captchaVerify';
import { getCustomerId } from './calls/getCustomerId';
import { lookup } from './calls/lookup';
import { queryCustomerCode } from './calls/queryCustomerCode';
import { queryFromUserExpoId } from './calls/secondForm';
import { selectAesKey } from './calls/selectAesKey';
import { SEND_CALLS, sendCode } from './calls/sendCode';
import { addExpoUserSite, deleteExpoUserSite, selectExpoUserSiteId, selectSiteDateList, selectSiteTypeList } from './calls/sites';
import { SitePath } from '../upstream/site-paths';
import { RefCode, reply } from './envelope';
import { type RefEnv, withExpo } from './expo';
import { outbox } from './outbox';
import { checkUserByName, getImage, getUserCompanyList, getUserSeatDetail, pageActivityType, selectUserSeat } from './calls/seats';
import { deleteHealth, healthImage, listHealth, uploadHealth } from './calls/health';
import { SeatPath } from '../upstream/calls/seats';
import { HealthPath } from '../upstream/calls/health';
import * as tickets from './calls/tickets';
import { TicketPath } from '../upstream/contract-tickets';
import { payNotify } from './payments';
import { paySimulator } from './pay-simulator';

/** Unexpected failures still answer an envelope; the detail goes to the log, not the user. */
const onError: ErrorHandler = (err, c) => {
  console.error('[reference upstream]', err);
  return reply(c, RefCode.INTERNAL, 'internal error in the reference upstream; see the Worker log');
};

const unknownCall = (c: Parameters<ErrorHandler>[1]) => reply(c, RefCode.NOT_FOUND, 'unknown call');

const custom = new Hono<RefEnv>();
custom.onError(onError);
custom.get(Path.selectAESKey, withExpo, selectAesKey);
custom.get(Path.getCustomerId, withExpo, getCustomerId);
for (const [path, call] of Object.entries(SEND_CALLS)) custom.post(path, withExpo, sendCode(call));
custom.get(Path.captchaVerify, withExpo, captchaVerify);
custom.get(Path.queryUserExpoId, withExpo, lookup('phone'));
custom.get(Path.queryEmailUserExpoId, withExpo, lookup('email'));
custom.get(Path.queryFromUserExpoId, withExpo, queryFromUserExpoId);
custom.get(Path.queryCustomerCode, withExpo, queryCustomerCode);
custom.post(Path.addUserInfo, withExpo, addUserInfo);
custom.post(Path.camera5, withExpo, camera5);
// Health upload (docs/upstream.md "Health upload"; calls/health.ts).
custom.post(HealthPath.upload, withExpo, uploadHealth);
custom.get(HealthPath.list, withExpo, listHealth);
custom.delete(HealthPath.delete, withExpo, deleteHealth);
custom.get(HealthPath.image, withExpo, healthImage);
// Tickets and orders (docs/upstream.md "Tickets and orders"), and the provider's callback (ours).
custom.get(TicketPath.selectUrlsTicketList, withExpo, tickets.selectUrlsTicketList);
custom.get(TicketPath.checkSurplusTicket, withExpo, tickets.checkSurplusTicket);
custom.get(TicketPath.selectDiscountTicketByCode, withExpo, tickets.selectDiscountTicketByCode);
custom.get(TicketPath.findUserBuyOrderNumByPhoneExpoId, withExpo, tickets.findUserBuyOrderNumByPhoneExpoId);
custom.post(TicketPath.createOrderNew, withExpo, tickets.createOrderNew);
custom.post(TicketPath.doUnifiedOrder, withExpo, tickets.doUnifiedOrder);
custom.get(TicketPath.getOrderStatus, withExpo, tickets.getOrderStatus);
custom.get(TicketPath.findOrderListByPhone, withExpo, tickets.findOrderListByPhone);
custom.post(TicketPath.deleteOrderById, withExpo, tickets.deleteOrderById);
custom.get(TicketPath.ifOpenRefund, withExpo, tickets.ifOpenRefund);
custom.post(TicketPath.WxRefundJSAPIByOrderNo, withExpo, tickets.WxRefundJSAPIByOrderNo);
custom.post(TicketPath.cancelRefundByOrderNo, withExpo, tickets.cancelRefundByOrderNo);
custom.post(TicketPath.payNotify, withExpo, payNotify);
// Site booking (docs/upstream.md "Site booking"): calls/sites.ts.
custom.get(SitePath.selectSiteTypeList, withExpo, selectSiteTypeList);
custom.get(SitePath.selectSiteDateList, withExpo, selectSiteDateList);
custom.post(SitePath.addExpoUserSite, withExpo, addExpoUserSite);
custom.get(SitePath.selectExpoUserSiteId, withExpo, selectExpoUserSiteId);
custom.post(SitePath.deleteExpoUserSite, withExpo, deleteExpoUserSite);
// Registered last: reached only when no call above matched (path or method).
custom.all('*', unknownCall);

/** The auth host's calls (docs/upstream.md "Seat lookup": `{UPSTREAM_AUTH_URL}/auth`; calls/seats.ts). */
const auth = new Hono<RefEnv>();
auth.onError(onError);
auth.get(SeatPath.getUserCompanyList, withExpo, getUserCompanyList);
auth.get(SeatPath.checkUserByName, withExpo, checkUserByName);
auth.get(SeatPath.getUserSeatDetail, withExpo, getUserSeatDetail);
auth.get(SeatPath.pageActivityType, withExpo, pageActivityType);
auth.get(SeatPath.selectUserSeat, withExpo, selectUserSeat);
auth.get(SeatPath.getImage, withExpo, getImage);
auth.all('*', unknownCall);

/** The reference upstream app; the Worker mounts it at `/`. */
const app = new Hono<{ Bindings: AppEnv }>();
app.onError(onError);
app.route('/custom', custom);
app.route('/auth', auth);
app.all('/wx/*', unknownCall);
app.route('/dev/pay', paySimulator);
app.route('/dev', outbox);

export default app;
