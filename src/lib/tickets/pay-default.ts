/**
 * The payment method the buyer form preselects (issue 30: "the payment method preselected by the
 * browser the visitor is in"). Of spec §1's two methods, the messaging app's pay (payType 1) is
 * the one that pays in place inside the messaging app's in-app browser (the app's own bridge:
 * docs/upstream.md `doUnifiedOrder`, `jsapi`); in any other browser it can only show a QR code to
 * scan with the app, so there the payment app (payType 2) comes first. A method the visitor chose
 * (a refused post's flash, a kept draft) always wins. Pure.
 */
import { inMessagingApp } from '../page/user-agent';

/** payType as the form posts it: `1` messaging-app pay, `2` payment-app pay. */
export type PayTypeValue = '1' | '2';

/**
 * The method checked on the buyer form: the visitor's own choice when there is one, else the
 * messaging app's pay inside its browser (User-Agent `MicroMessenger`), else the payment app.
 * @example preselectedPayType('Mozilla/5.0 … MicroMessenger/8.0.50 …') // '1'
 * @example preselectedPayType('Mozilla/5.0 … Chrome/140 Mobile Safari/537.36') // '2'
 * @example preselectedPayType('… MicroMessenger/8.0 …', '2') // '2' (chosen)
 */
export function preselectedPayType(userAgent: string, chosen?: string | null): PayTypeValue {
  if (chosen === '1' || chosen === '2') return chosen;
  return inMessagingApp(userAgent) ? '1' : '2';
}
