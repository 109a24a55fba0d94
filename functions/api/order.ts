/**
 * `POST /api/order`, `/api/order/action`, `/api/discount`: the purchase actions
 * (src/lib/actions/order.ts) over the upstream, the purchase limits and the session secret.
 */
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { checkPurchaseLimits } from '../limits';
import { OPENID_COOKIE } from '../middleware/guard';
import { action, type Ctx } from './action';
import { inMessagingApp } from '../../src/lib/page/user-agent';
import { discount, order as orderAction, orderAction as changeOrder, type OrderPorts } from '../../src/lib/actions/order';

function orderPorts(c: Ctx): OrderPorts {
  return {
    up: upstreamFor(c.env),
    secret: c.env.SESSION_SECRET ?? '',
    limit: (s) => checkPurchaseLimits(c, s),
    openId: inMessagingApp(c.req.header('user-agent') ?? '') ? getCookie(c, OPENID_COOKIE)?.trim() : undefined,
    log: (message, detail) => console.error(message, detail),
  };
}

export const order = new Hono<{ Bindings: AppEnv }>();
order.post('/order', action(orderAction, { ports: orderPorts }));
order.post('/order/action', action(changeOrder, { ports: orderPorts }));
order.post('/discount', action(discount, { ports: orderPorts }));
