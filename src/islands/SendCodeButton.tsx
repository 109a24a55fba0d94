import { useRef, useState, type MouseEvent } from 'react';
import { useStore } from '@nanostores/react';
import { submit, toastOf } from './call';
import type { LookupStringKey, SendCodeReply } from './lookup-types';
import { TOAST_MS } from '../lib/page/toast';
import type { LookupField } from '../lib/lookup/validation';
import { showToast } from '../stores/toast';
import { $resendIn, RESEND_SECONDS, sendCodeLabel, startResendCountdown } from '../stores/lookup';

/** What `POST /api/send-code` takes from the island (plain values; the edge encrypts, DESIGN.md). */
export interface SendCodeBody {
  expoId: string;
  urlId: string;
  ty: string;
  variant: string;
  checkType: 1 | 2;
  areaCode: string;
  phone: string;
  email: string;
  /** the page's language: refusals come back in it (functions/api/input.ts), not the cookie's */
  pageLang: string;
  /** the Turnstile widget's token, once the page shows the widget */
  'cf-turnstile-response'?: string;
}

export interface SendCodeButtonProps {
  strings: Readonly<Record<LookupStringKey, string>>;
  /** false on the server and in the first client render: the button is then the plain no-JS submit button */
  enhanced: boolean;
  /** a code was sent before: the idle label is "reget" */
  sent: boolean;
  /**
   * Seconds left of the countdown when the server rendered the page (a reload during it). The
   * server's label already counts them, so hydration changes no text and nothing moves (CLS 0); without JavaScript the button stays usable (the server refuses an early send).
   */
  initialLeft: number;
  /** Validates the contact; on failure shows the message under the field, focuses it and returns null. */
  prepare: () => SendCodeBody | null;
  /** A code went out: the form marks it sent and moves focus to the code field (spec §4). */
  onSent: () => void;
  /** The server refused a field (its own validation). */
  onFieldError: (field: Exclude<LookupField, 'code'>, message: string) => void;
}

type Reply = NonNullable<SendCodeReply['data']>;

/**
 * The send-code button of spec §4. Without JavaScript it is a submit button posting the form to
 * /api/send-code (always enabled: the server refuses a too-early resend with a message). With
 * JavaScript it validates the contact, posts JSON, and on code 200 counts down 60 s ($resendIn)
 * and toasts success; on any other code it is enabled again at once and the server's msg shows.
 */
export default function SendCodeButton({
  strings,
  enhanced,
  sent,
  initialLeft,
  prepare,
  onSent,
  onFieldError,
}: SendCodeButtonProps) {
  const live = useStore($resendIn, { ssr: 'initial' });
  const left = enhanced ? live : initialLeft;
  const [sending, setSending] = useState(false);
  const inFlight = useRef(false);

  async function onClick(e: MouseEvent<HTMLButtonElement>) {
    e.preventDefault();
    const form = e.currentTarget.form;
    if (inFlight.current || $resendIn.get() > 0) return;
    const body = prepare();
    if (!body) return;
    const token = document.querySelector<HTMLInputElement>('input[name="cf-turnstile-response"]')?.value;
    if (token) body['cf-turnstile-response'] = token;
    inFlight.current = true;
    setSending(true);
    const reply = await submit<Reply>('/api/send-code', body, { invalid: (d) => onFieldError(d.field as Exclude<LookupField, 'code'>, d.message) });
    inFlight.current = false;
    setSending(false);
    // null: handled (a transport fault's or a refusal's toast is on screen, or the field's message)
    if (!reply) return;
    if (reply.code === 200) {
      const n =
        reply.data && 'resendIn' in reply.data && reply.data.resendIn > 0 ? reply.data.resendIn : RESEND_SECONDS;
      startResendCountdown(n);
      showToast({ key: null, text: strings['search.sendSuccess'], durationMs: TOAST_MS }, 'success');
      onSent();
    } else if (reply.data && 'challenge' in reply.data) {
      // a challenge first. The widget's script is allowed only on a page that
      // shows it: a page without it comes back through the form post (every value kept).
      const { turnstile, waitS } = reply.data.challenge;
      if (turnstile && form && !document.querySelector('.cf-turnstile')) {
        form.action = '/api/send-code';
        form.submit();
        return;
      }
      if (!turnstile) startResendCountdown(waitS);
      toastOf(reply);
    }
  }

  return (
    <button
      type="submit"
      formAction="/api/send-code"
      formNoValidate
      className="btn secondary lookup-send"
      disabled={enhanced && left > 0}
      // In flight the button keeps its focus (aria-disabled, not disabled), so a refusal leaves the visitor where they were.
      aria-disabled={sending || undefined}
      onClick={onClick}
    >
      {sendCodeLabel({ sending, left, sent }, strings)}
    </button>
  );
}
