/**
 * Enhances the server-rendered lookup form (src/components/lookup/LookupForm.astro; spec §2.1,
 * §4) once its script has loaded, with everything the React island did:
 * - inline validation (src/lib/lookup/validation.ts, the server's rules), the message under the
 *   failing field, the field focused (spec §5); a message clears as its field is edited;
 * - the mode switch in place, remembered in session storage (spec §2.1, src/islands/session.ts);
 *   a modified click is the browser's (new tab);
 * - the searchable country picker, and a phone typed in international form (`+66 8…`) shown as
 *   its country and national number;
 * - the send-code button: JSON post, its 60 s countdown (spec §4, §9), the success toast, focus
 *   to the code field, a challenge (Turnstile) or a wait from the server;
 * - the lookup's JSON submit with pageLang: to the credential page, the selection sheet for
 *   several registrations, a notice for none, the code's message; every typed value kept on failure;
 * - the page's error toast (spec §8) and the service worker.
 * Without JavaScript (or before this loads) the form posts and the server does all of this.
 *
 * Plain DOM, not a React island (issue 24: a lookup page's JavaScript under 70 KB gzip; React's
 * chunk alone is 67). Its settings come from the server as JSON in `data-props`.
 */
import type { LookupOutcome, LookupStringKey, LookupValues, SelectRow, SendCodeReply } from '../islands/lookup-types';
import { submit, toastOf } from '../islands/call';
import { browserSession, checkTypeOf, isModifiedClick, storeCheckType, storedCheckType, write } from '../islands/session';
import { unpackCountries, withInternational } from '../lib/form/countries';
import type { ContactMode } from '../lib/expo/variants';
import type { Lang } from '../lib/page/languages';
import { validateLookup, validateSendCode, type CheckType, type LookupField } from '../lib/lookup/validation';
import { TOAST_MS } from '../lib/page/toast';
import { $resendIn, RESEND_SECONDS, sendCodeLabel, startResendCountdown } from '../stores/lookup';
import { showToast } from '../stores/toast';
import { countryPicker, type CountryPicker } from './country-picker';
import { FIELD_ID, HIDDEN_NAMES, el, errorId } from './lookup-dom';
import { openSheet } from './sheet';
import { mountToast } from './toast-host';

/** What the server hands the script (LookupForm.astro's `data-props`). */
export interface LookupEnhanceProps {
  hidden: Record<(typeof HIDDEN_NAMES)[number], string>;
  modes: ContactMode[];
  checkType: CheckType;
  /** the server chose the mode from an explicit request (?mode= or a failed post): the stored one does not override it */
  checkTypeExplicit: boolean;
  emailWithoutCode: boolean;
  values: LookupValues;
  /** seconds left of the send-code countdown when the server rendered the page */
  resendIn: number;
  lang: Lang;
  /** the packed country list (src/lib/form/countries.ts packCountries) */
  countries: string;
  strings: Record<LookupStringKey, string>;
  toastStrings: Record<string, string>;
  /** spec §8: a toast to show at once (a missing url config) */
  toast: string | null;
}

type SendBody = Record<string, string | number>;
type SendData = NonNullable<SendCodeReply['data']>;

/** Wires the lookup form inside `root` (the `.lookup` element). */
export function enhanceLookup(root: HTMLElement, props: LookupEnhanceProps): void {
  const form = root.querySelector<HTMLFormElement>('form.lookup-form');
  if (!form) return;
  const { strings, lang, hidden, modes } = props;
  const countries = unpackCountries(props.countries, lang);
  const codes = countries.map((c) => c.code);
  const store = browserSession();
  let checkType: CheckType = props.checkType;
  let busy = false;
  let sending = false;
  let sent = props.resendIn > 0;
  let picker: CountryPicker | null = null;
  /** redraws the send-code button (its label follows `sent` too, which is not a store) */
  let drawSend = () => undefined as void;
  form.noValidate = true;

  const input = (name: string): HTMLInputElement | HTMLSelectElement | null => {
    const x = form.elements.namedItem(name);
    return x instanceof HTMLInputElement || x instanceof HTMLSelectElement ? x : null;
  };
  const valueOf = (name: keyof LookupValues): string => (name === 'areaCode' && picker ? picker.value() : (input(name)?.value ?? ''));
  const values = (): LookupValues => ({ areaCode: valueOf('areaCode'), phone: valueOf('phone'), email: valueOf('email'), code: valueOf('code') });

  // ---- field errors (spec §5: the failing field receives focus)
  const clearError = () => {
    form.querySelectorAll('.lookup-error').forEach((p) => p.remove());
    form.querySelectorAll('[aria-invalid]').forEach((x) => {
      x.removeAttribute('aria-invalid');
      x.removeAttribute('aria-describedby');
    });
  };
  const showFieldError = (field: LookupField, message: string) => {
    clearError();
    const target = document.getElementById(FIELD_ID[field]);
    const box = target?.closest('.lookup-field');
    if (!target || !box) return;
    target.setAttribute('aria-invalid', 'true');
    target.setAttribute('aria-describedby', errorId(field));
    box.append(el('p', { id: errorId(field), class: 'lookup-error', role: 'alert' }, message));
    target.focus();
  };
  const errorField = (): string | null => form.querySelector('.lookup-error')?.id.replace(/^lookup-|-error$/g, '') ?? null;
  // The server's autofocus was for the no-JS page; from here on focus moves only with a message.
  form.querySelectorAll('[autofocus]').forEach((x) => x.removeAttribute('autofocus'));

  // ---- the notice above the form
  const showNotice = (tone: 'info' | 'error' | null, message = '') => {
    root.querySelector(':scope > .notice')?.remove();
    if (!tone) return;
    const p = el('p', { class: tone === 'info' ? 'notice info' : 'notice', role: tone === 'info' ? 'status' : 'alert' }, message);
    root.prepend(p);
    p.scrollIntoView({ block: 'nearest' });
  };

  // ---- the country picker in place of the select
  const mountPicker = (select: HTMLSelectElement, areaCode: string) => {
    const invalid = select.getAttribute('aria-invalid');
    const described = select.getAttribute('aria-describedby');
    picker = countryPicker({
      id: FIELD_ID.areaCode,
      labelId: `${FIELD_ID.areaCode}-label`,
      value: areaCode,
      countries,
      lang,
      strings: {
        title: strings['search.country'],
        search: strings['search.countrySearch'],
        placeholder: strings['search.selectCountry'],
        close: strings['app.close'],
        none: strings['search.countryNone'] ?? '',
      },
      parent: root,
      onChange: () => {
        if (errorField() === 'areaCode') clearError();
      },
    });
    if (invalid) picker.button.setAttribute('aria-invalid', invalid);
    if (described) picker.button.setAttribute('aria-describedby', described);
    select.replaceWith(...picker.nodes);
  };

  // ---- the mode's fields, drawn in place when the mode changes
  const contactField = (name: 'phone' | 'email', value: string): HTMLElement => {
    const box = el('div', { class: 'lookup-field', 'data-contact': '' });
    const phone = name === 'phone';
    const field = el('input', {
      id: FIELD_ID[name],
      name,
      type: phone ? 'tel' : 'email',
      inputmode: phone ? 'tel' : 'email',
      autocomplete: phone ? 'tel-national' : 'email',
      required: '',
      placeholder: strings[phone ? 'search.phonePlach' : 'search.emailPlach'],
    });
    field.value = value;
    box.append(el('label', { for: FIELD_ID[name] }, strings[phone ? 'search.phone' : 'search.email']), field);
    return box;
  };
  const areaField = (areaCode: string): HTMLElement => {
    const box = el('div', { class: 'lookup-field', 'data-contact': '' });
    const select = el('select', { id: FIELD_ID.areaCode, name: 'areaCode' });
    box.append(el('label', { id: `${FIELD_ID.areaCode}-label`, for: FIELD_ID.areaCode }, strings['search.country']), select);
    mountPicker(select, areaCode);
    return box;
  };
  // The code field and the hidden default button: kept while the mode needs no code (site 10542).
  let codeBox = form.querySelector<HTMLElement>('[data-code]');
  let defaultButton = form.querySelector<HTMLButtonElement>('.lookup-default');
  const codeField = (): HTMLElement => {
    const box = el('div', { class: 'lookup-field', 'data-code': '' });
    const row = el('div', { class: 'lookup-code-row' });
    const code = el('input', {
      id: FIELD_ID.code,
      name: 'code',
      inputmode: 'numeric',
      pattern: '[0-9]*',
      autocomplete: 'one-time-code',
      required: '',
      placeholder: strings['search.codePlach'],
    });
    const send = el('button', { type: 'submit', formaction: '/api/send-code', formnovalidate: '', class: 'btn secondary lookup-send' });
    row.append(code, send);
    box.append(el('label', { for: FIELD_ID.code }, strings['search.code']), row);
    wireSend(send);
    return box;
  };
  const needCode = () => !(props.emailWithoutCode && checkType === 2);
  const checkTypeInput = form.querySelector<HTMLInputElement>('input[name="checkType"]');

  function drawMode(v: LookupValues) {
    if (checkTypeInput) checkTypeInput.value = String(checkType);
    form?.querySelectorAll<HTMLAnchorElement>('.lookup-mode').forEach((a) => {
      if (checkTypeOf(a.dataset['mode'] as ContactMode) === checkType) a.setAttribute('aria-current', 'true');
      else a.removeAttribute('aria-current');
    });
    const old = [...(form?.querySelectorAll('[data-contact]') ?? [])];
    const fields = checkType === 1 ? [areaField(v.areaCode), contactField('phone', v.phone)] : [contactField('email', v.email)];
    picker = checkType === 1 ? picker : null;
    old[0]?.before(...fields);
    old.forEach((x) => x.remove());
    const last = fields[fields.length - 1] as HTMLElement;
    if (needCode()) {
      codeBox ??= codeField();
      defaultButton ??= el('button', { type: 'submit', class: 'lookup-default', tabindex: '-1', 'aria-hidden': 'true' }, strings['search.submit']);
      last.after(codeBox);
      form?.prepend(defaultButton);
      const code = input('code');
      if (code) code.value = v.code;
    } else {
      codeBox?.remove();
      defaultButton?.remove();
    }
  }

  function switchMode(e: MouseEvent, mode: ContactMode) {
    if (isModifiedClick(e)) return;
    e.preventDefault();
    const next = checkTypeOf(mode);
    storeCheckType(store, next);
    if (next === checkType) return;
    // spec §2.1: changing the mode clears the typed contact.
    checkType = next;
    clearError();
    showNotice(null);
    drawMode({ ...values(), phone: '', email: '', code: '' });
  }
  form.querySelectorAll<HTMLAnchorElement>('.lookup-mode').forEach((a) =>
    a.addEventListener('click', (e) => switchMode(e, a.dataset['mode'] as ContactMode)),
  );

  /** A phone typed in international form ('+66 8…') shows as its country and national number. */
  const adoptInternational = (v: { checkType: CheckType; areaCode: string; phone: string }) => {
    if (v.checkType !== 1) return;
    if (v.areaCode !== valueOf('areaCode')) picker?.set(v.areaCode);
    const phone = input('phone');
    if (phone && v.phone !== phone.value.trim()) phone.value = v.phone;
  };
  /** The contact for the chosen mode only; the other mode's fields are not sent. */
  const contact = (v: { areaCode: string; phone: string; email: string }) =>
    checkType === 1 ? { areaCode: v.areaCode, phone: v.phone, email: '' } : { areaCode: '', phone: '', email: v.email };

  // ---- the send-code button (spec §4)
  function wireSend(button: HTMLButtonElement) {
    const draw = () => {
      const left = $resendIn.get();
      button.textContent = sendCodeLabel({ sending, left, sent }, strings);
      button.disabled = left > 0;
      // In flight the button keeps its focus (aria-disabled, not disabled): a refusal leaves the visitor where they were.
      if (sending) button.setAttribute('aria-disabled', 'true');
      else button.removeAttribute('aria-disabled');
    };
    drawSend = draw;
    $resendIn.subscribe(draw);
    button.addEventListener('click', (e) => {
      e.preventDefault();
      void sendCode(draw);
    });
  }
  async function sendCode(draw: () => void) {
    if (sending || $resendIn.get() > 0) return;
    const v = validateSendCode(withInternational({ checkType, ...values() }, codes));
    if (!v.ok) {
      showFieldError(v.field, strings[v.key]);
      return;
    }
    clearError();
    adoptInternational(v.value);
    const { expoId, urlId, ty, variant } = hidden;
    const body: SendBody = { expoId, urlId, ty, variant, checkType, ...contact(v.value), pageLang: lang };
    const token = document.querySelector<HTMLInputElement>('input[name="cf-turnstile-response"]')?.value;
    if (token) body['cf-turnstile-response'] = token;
    sending = true;
    draw();
    const reply = await submit<SendData>('/api/send-code', body, { invalid: (d) => showFieldError(d.field as LookupField, d.message) });
    sending = false;
    draw();
    // null: handled (a transport fault's or a refusal's toast is on screen, or the field's message)
    if (!reply) return;
    if (reply.code === 200) {
      const n = reply.data && 'resendIn' in reply.data && reply.data.resendIn > 0 ? reply.data.resendIn : RESEND_SECONDS;
      sent = true;
      startResendCountdown(n);
      showToast({ key: null, text: strings['search.sendSuccess'], durationMs: TOAST_MS }, 'success');
      clearError();
      document.getElementById(FIELD_ID.code)?.focus();
    } else if (reply.data && 'challenge' in reply.data) {
      // A challenge first. The widget's script is allowed only on a page that shows it: a page
      // without it comes back through the form post (every value kept).
      const { turnstile, waitS } = reply.data.challenge;
      if (turnstile && !document.querySelector('.cf-turnstile')) {
        form!.action = '/api/send-code';
        form!.submit();
        return;
      }
      if (!turnstile) startResendCountdown(waitS);
      toastOf(reply);
    }
  }

  // ---- the lookup (JSON submit)
  const submitButton = form.querySelector<HTMLButtonElement>('.lookup-submit');
  const setBusy = (b: boolean) => {
    busy = b;
    if (!submitButton) return;
    submitButton.textContent = strings[b ? 'app.loading' : 'search.submit'];
    if (b) submitButton.setAttribute('aria-disabled', 'true');
    else submitButton.removeAttribute('aria-disabled');
  };
  const selectSheet = (rows: readonly SelectRow[]) => {
    const list = el('ul', { class: 'sheet-list' });
    rows.forEach((row) => {
      const a = el('a', { class: 'sheet-row', href: row.href });
      a.append(el('span', { class: 'sheet-row-name' }, row.name), el('span', { class: 'sheet-row-label' }, row.label));
      // spec §2.1: choosing replaces the history entry, so Back returns to where the visitor came from.
      a.addEventListener('click', (e) => {
        if (isModifiedClick(e)) return;
        e.preventDefault();
        window.location.replace(row.href);
      });
      const li = el('li');
      li.append(a);
      list.append(li);
    });
    openSheet({ parent: root, className: 'sheet-half', titleId: 'lookup-select-title', title: strings['search.selectTitle'], closeLabel: strings['app.close'], body: [list] });
  };
  async function lookUp() {
    if (busy) return;
    const v = validateLookup(withInternational({ checkType, ...values() }, codes), { requireCode: needCode() });
    if (!v.ok) {
      showFieldError(v.field, strings[v.key]);
      return;
    }
    clearError();
    adoptInternational(v.value);
    setBusy(true);
    const { expoId, urlId, ty, variant, list, f, define, next } = hidden;
    let leaving = false;
    const reply = await submit<LookupOutcome>(
      '/api/lookup',
      { expoId, urlId, ty, variant, list, f, define, next, checkType, ...contact(v.value), code: v.value.code, pageLang: lang },
      {
        // Stays busy while the browser leaves (pageshow resets it if the visitor comes back).
        leave: (out) => {
          leaving = true;
          if (out.outcome === 'navigate') write(store, out.session, out.removeSession);
        },
        invalid: (out) => showFieldError(out.field as LookupField, out.message),
      },
    );
    if (leaving) return;
    setBusy(false);
    // null: handled above (a transport failure's or a refusal's toast is on screen); values stay as typed.
    const out = reply?.data;
    if (!out) return;
    switch (out.outcome) {
      case 'select':
        write(store, out.session, out.removeSession);
        if (out.rows.length > 0) selectSheet(out.rows);
        else showNotice('error', strings['search.nodata']);
        break;
      case 'nodata':
        showNotice('error', out.message || strings['search.nodata']);
        break;
      case 'failed':
        // spec §8: a failed verify or lookup shows no message; every typed value stays. A code
        // that can no longer work says so, and the send button is usable at once.
        if (out.newCode) {
          sent = true;
          startResendCountdown(0);
          drawSend();
        }
        if (out.message) showFieldError('code', out.message);
        break;
    }
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const submitter = e.submitter;
    // The send-code button is a submit button for the no-JS form; its click handler does its work.
    if (submitter instanceof HTMLButtonElement && submitter.classList.contains('lookup-send')) return;
    void lookUp();
  });
  // A message clears as its field is edited.
  const onEdit = (e: Event) => {
    const name = (e.target as HTMLInputElement | null)?.name;
    if (name && name === errorField()) clearError();
  };
  form.addEventListener('input', onEdit);
  form.addEventListener('change', onEdit);
  // Back to this page from the bfcache after a navigation: the submit button is usable again.
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) setBusy(false);
  });

  // ---- start: the server's state, then what the browser knows
  if (props.resendIn > 0) startResendCountdown(props.resendIn);
  const send = form.querySelector<HTMLButtonElement>('.lookup-send');
  if (send) wireSend(send);
  const typed = values();
  const touched = (Object.keys(typed) as (keyof LookupValues)[]).some((k) => typed[k] !== props.values[k]);
  // spec §2.1: the stored mode wins over the default, but not over an explicit choice or typing.
  const stored = !props.checkTypeExplicit && !touched ? storedCheckType(store, modes) : null;
  if (stored !== null && stored !== checkType) {
    checkType = stored;
    drawMode(typed);
  } else {
    const select = form.querySelector<HTMLSelectElement>('select[name="areaCode"]');
    if (select) mountPicker(select, select.value);
  }
  // spec §8: a missing url config is the search.otherError toast (the server's notice is for no-JS too).
  if (props.toast) showToast({ key: props.toast as 'search.otherError', durationMs: TOAST_MS });
  // Keep the credential pages this visitor opens for a visit without a network (/sw.js).
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => undefined);
}

/** The page's lookup form and toast, from the server's settings; a page without them is left alone. */
function start(): void {
  const root = document.querySelector<HTMLElement>('[data-lookup][data-props]');
  if (!root) return;
  const props = JSON.parse(root.dataset['props'] ?? '{}') as LookupEnhanceProps;
  const region = root.querySelector<HTMLElement>('.toast-region[data-toast-host]');
  if (region) mountToast(region, props.toastStrings);
  enhanceLookup(root, props);
  root.dataset['enhanced'] = '';
}

start();
