/**
 * The messaging app's JS payment bridge (pay type 1 inside the app). The server
 * renders a plain form posting `pay` to /api/order/action (without JS: the cashier page);
 * hydrated inside the app, a press asks the edge for the `jsapi` parameters and hands them to
 * the app's bridge, then returns to the order page with the outcome. Anything else (no bridge,
 * a cashier URL) navigates like the form would.
 */
import { useState, type FormEvent } from 'react';
import { postJson } from './call';
import type { OrderOutcome } from '../lib/actions/replies';

interface Props {
  path: string;
  orderNo: string;
  label: string;
}

interface Bridge {
  invoke(name: string, params: Record<string, string>, done: (res: { err_msg?: string }) => void): void;
}

export default function WxPay({ path, orderNo, label }: Props) {
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    const bridge = (window as unknown as { WeixinJSBridge?: Bridge }).WeixinJSBridge;
    if (!bridge) return; // the plain form post: the cashier page
    e.preventDefault();
    setBusy(true);
    const reply = await postJson<OrderOutcome>('/api/order/action', { path, orderNo, action: 'pay' });
    const out = reply?.data ?? null;
    if (out?.outcome === 'jsapi') {
      bridge.invoke('getBrandWCPayRequest', out.jsapi, (res) => {
        const paid = res.err_msg === 'get_brand_wcpay_request:ok';
        const cancelled = res.err_msg === 'get_brand_wcpay_request:cancel';
        window.location.assign(`${out.returnUrl}&pay=${paid ? 'paid' : cancelled ? 'abandoned' : 'failed'}`);
      });
      return;
    }
    if (out?.outcome === 'navigate') {
      window.location.assign(out.location);
      return;
    }
    setBusy(false);
    e.currentTarget.submit();
  };
  return (
    <form method="post" action="/api/order/action" onSubmit={(e) => void onSubmit(e)}>
      <input type="hidden" name="path" value={path} />
      <input type="hidden" name="orderNo" value={orderNo} />
      <button className="btn" name="action" value="pay" disabled={busy}>
        {label}
      </button>
    </form>
  );
}
