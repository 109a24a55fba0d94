import { useEffect, useState, type MouseEvent } from 'react';
import { useStore } from '@nanostores/react';
import { submit, toastOf } from './call';
import { FIELD_ID, type SendCodeButtonProps, type SendCodeReply } from './lookup-types';
import { withInternational } from '../lib/form/countries';
import { resolveLang } from '../lib/core/languages';
import { TOAST_MS } from '../lib/page/toast';
import { validateSendCode, type LookupField } from '../lib/lookup/validation';
import { showToast } from '../stores/toast';
import {
  $areaCodes,
  $checkType,
  $codeSent,
  $fieldError,
  $lookupReady,
  $lookupValues,
  $resendIn,
  $sending,
  RESEND_SECONDS,
  requestFocus,
  sendCodeLabel,
  showFieldError,
  startResendCountdown,
} from '../stores/lookup';

type Reply = NonNullable<SendCodeReply['data']>;

/**
 * The send-code button of spec §4, an island of its own inside the lookup form's code row
 * (src/components/lookup/LookupForm.astro passes it to the form island as its `send` slot).
 * Without JavaScript, and until it and the form have hydrated, it is a submit button posting the
 * form to /api/send-code (the server refuses a too-early resend with a message). Hydrated, it is
 * a view of the stores it shares with the form (src/stores/lookup.ts): it validates the typed
 * contact, posts JSON, counts down 60 s ($resendIn), toasts success and asks the form to focus the
 * code field; a challenge (Turnstile, or a wait) from the server is followed.
 */
export default function SendCodeButton(props: SendCodeButtonProps) {
  const { strings, hidden } = props;
  const lang = resolveLang(props.lang);
  const [hydrated, setHydrated] = useState(false);
  const live = useStore($resendIn);
  const liveSent = useStore($codeSent);
  const sending = useStore($sending);
  // The server's label until hydrated (the same text: nothing moves), the stores after.
  const left = hydrated ? live : props.resendIn;
  const sent = hydrated ? liveSent : props.resendIn > 0;

  useEffect(() => {
    if (props.resendIn > 0) {
      $codeSent.set(true);
      if ($resendIn.get() === 0) startResendCountdown(props.resendIn);
    }
    setHydrated(true);
    // Once, after hydration: the props are the server's first state.
  }, []);

  async function onClick(e: MouseEvent<HTMLButtonElement>) {
    // The form island not hydrated yet: the button posts the form, as without JavaScript.
    if (!$lookupReady.get()) return;
    e.preventDefault();
    const form = e.currentTarget.form;
    if ($sending.get() || $resendIn.get() > 0) return;
    const checkType = $checkType.get();
    const v = validateSendCode(withInternational({ checkType, ...$lookupValues.get() }, $areaCodes.get()));
    if (!v.ok) {
      showFieldError(v.field, strings[v.key]);
      return;
    }
    $fieldError.set(null);
    // A phone typed in international form ('+66 8…') shows as its country and national number.
    if (checkType === 1) $lookupValues.set({ ...$lookupValues.get(), areaCode: v.value.areaCode, phone: v.value.phone });
    const contact = checkType === 1 ? { areaCode: v.value.areaCode, phone: v.value.phone, email: '' } : { areaCode: '', phone: '', email: v.value.email };
    const body: Record<string, string | number> = { expoId: hidden.expoId, urlId: hidden.urlId, ty: hidden.ty, variant: hidden.variant, checkType, ...contact, pageLang: lang };
    const token = document.querySelector<HTMLInputElement>('input[name="cf-turnstile-response"]')?.value;
    if (token) body['cf-turnstile-response'] = token;
    $sending.set(true);
    const reply = await submit<Reply>('/api/send-code', body, { invalid: (d) => showFieldError(d.field as LookupField, d.message) });
    $sending.set(false);
    // null: handled (a transport fault's or a refusal's toast is on screen, or the field's message)
    if (!reply) return;
    if (reply.code === 200) {
      const n = reply.data && 'resendIn' in reply.data && reply.data.resendIn > 0 ? reply.data.resendIn : RESEND_SECONDS;
      $codeSent.set(true);
      startResendCountdown(n);
      showToast({ key: null, text: strings['search.sendSuccess'], durationMs: TOAST_MS }, 'success');
      $fieldError.set(null);
      requestFocus(FIELD_ID.code);
    } else if (reply.data && 'challenge' in reply.data) {
      // A challenge first. The widget's script is allowed only on a page that shows it: a page
      // without it comes back through the form post (every value kept).
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
      disabled={hydrated && left > 0}
      // In flight the button keeps its focus (aria-disabled, not disabled): a refusal leaves the visitor where they were.
      aria-disabled={(hydrated && sending) || undefined}
      onClick={(e) => void onClick(e)}
    >
      {sendCodeLabel({ sending: hydrated && sending, left, sent }, strings)}
    </button>
  );
}
