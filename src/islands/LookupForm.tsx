import './lookup.css';
import { useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { LookupFormProps, LookupOutcome, LookupValues, SelectRow } from './lookup-types';
import { submit } from './call';
import CountryPicker from './CountryPicker';
import SelectPopup from './SelectPopup';
import ToastHost from './ToastHost';
import SendCodeButton, { type SendCodeBody } from './SendCodeButton';
import { browserSession, checkTypeOf, isModifiedClick, storeCheckType, storedCheckType, write } from './session';
import { countryEntryText, unpackCountries } from '../lib/form/countries';
import { resolveLang } from '../lib/page/languages';
import { validateLookup, validateSendCode, type CheckType, type LookupField } from '../lib/lookup/validation';
import type { ContactMode } from '../lib/expo/variants';
import { startResendCountdown } from '../stores/lookup';
import { showToast } from '../stores/toast';
import { TOAST_MS } from '../lib/page/toast';

/** One lookup form per page, so fixed ids (stable between the server render and hydration). */
const FIELD_ID: Readonly<Record<LookupField, string>> = {
  areaCode: 'lookup-areaCode',
  phone: 'lookup-phone',
  email: 'lookup-email',
  code: 'lookup-code',
};
const errorId = (field: LookupField): string => `${FIELD_ID[field]}-error`;
const HIDDEN_NAMES = ['expoId', 'urlId', 'ty', 'variant', 'list', 'f', 'define', 'back', 'next'] as const;
const VALUE_NAMES = ['areaCode', 'phone', 'email', 'code'] as const;

type FieldError = { field: LookupField; message: string };
type Notice = NonNullable<LookupFormProps['notice']>;

/**
 * The contact-lookup form of spec §2.1 and §4. Rendered on the server it is a complete no-JS
 * form posting to /api/lookup (and /api/send-code through the send-code button); hydrated, it
 * enhances the same markup: in-place mode switch remembered in session storage, the searchable
 * country picker, the send-code countdown, JSON submit with the selection popup. Nothing reads
 * window or storage during render, so hydration matches the server's HTML.
 */
export default function LookupForm(props: LookupFormProps & { children?: ReactNode }) {
  const { hidden, modes, strings, toastStrings, children } = props;
  const lang = resolveLang(props.lang);
  const countries = useMemo(() => unpackCountries(props.countries), [props.countries]);
  const [enhanced, setEnhanced] = useState(false);
  const [checkType, setCheckType] = useState<CheckType>(props.checkType);
  const [values, setValues] = useState<LookupValues>(props.values);
  const [error, setError] = useState<FieldError | null>(props.error);
  const [notice, setNotice] = useState<{ id: number; notice: Notice } | null>(
    props.notice ? { id: 0, notice: props.notice } : null,
  );
  const [busy, setBusy] = useState(false);
  const [rows, setRows] = useState<readonly SelectRow[] | null>(null);
  const [sent, setSent] = useState(props.resendIn > 0);
  const formRef = useRef<HTMLFormElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const busyRef = useRef(false);

  useEffect(() => {
    // client:idle hydrates late: keep whatever was typed before (React leaves the DOM value alone).
    const typed = formRef.current ? domValues(formRef.current) : {};
    setValues((v) => ({ ...v, ...typed }));
    const touched = Object.entries(typed).some(([k, v]) => v !== props.values[k as keyof LookupValues]);
    // spec §2.1: the stored mode wins over the default, but not over an explicit choice or typing.
    if (!props.checkTypeExplicit && !touched) {
      const stored = storedCheckType(browserSession(), modes);
      if (stored !== null) setCheckType(stored);
    }
    if (props.resendIn > 0) startResendCountdown(props.resendIn);
    // spec §8: a missing url config is the search.otherError toast (the server's notice is for no-JS too).
    if (props.toast) showToast({ key: props.toast, durationMs: TOAST_MS });
    // keep the credential pages this visitor opens for a visit without a network (/sw.js).
    if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => undefined);
    setEnhanced(true);
    // Back to this page from the bfcache after a navigation: the submit button is usable again.
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted) setBusyBoth(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
    // Once, after hydration: the props are the server's first state.
  }, []);

  useEffect(() => {
    if (notice && notice.id > 0) noticeRef.current?.scrollIntoView({ block: 'nearest' });
  }, [notice]);

  function setBusyBoth(b: boolean) {
    busyRef.current = b;
    setBusy(b);
  }

  /** Shows a message under its field and focuses the field (spec §5: the failing field receives focus). */
  function showFieldError(field: LookupField, message: string) {
    // Rendered first, so the focused field already carries aria-invalid and its description.
    flushSync(() => setError({ field, message }));
    document.getElementById(FIELD_ID[field])?.focus();
  }

  function showNotice(n: Notice) {
    setNotice((prev) => ({ id: (prev?.id ?? 0) + 1, notice: n }));
  }

  function setValue(name: keyof LookupValues, value: string) {
    setValues((v) => ({ ...v, [name]: value }));
    if (error?.field === name) setError(null);
  }
  const onInput = (name: keyof LookupValues) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setValue(name, e.target.value);

  function switchMode(e: MouseEvent<HTMLAnchorElement>, mode: ContactMode) {
    if (isModifiedClick(e)) return;
    e.preventDefault();
    const next = checkTypeOf(mode);
    storeCheckType(browserSession(), next);
    if (next === checkType) return;
    // spec §2.1: changing the mode clears the typed contact.
    setCheckType(next);
    setValues((v) => ({ ...v, phone: '', email: '', code: '' }));
    setError(null);
    setNotice(null);
  }

  /** The contact for the chosen mode only; the other mode's fields are not sent. */
  function contact(v: { areaCode: string; phone: string; email: string }) {
    return checkType === 1
      ? { areaCode: v.areaCode, phone: v.phone, email: '' }
      : { areaCode: '', phone: '', email: v.email };
  }

  function prepareSend(): SendCodeBody | null {
    const v = validateSendCode({ checkType, ...values });
    if (!v.ok) {
      showFieldError(v.field, strings[v.key]);
      return null;
    }
    setError(null);
    const { expoId, urlId, ty, variant } = hidden;
    return { expoId, urlId, ty, variant, checkType, ...contact(v.value), pageLang: lang };
  }

  function onSent() {
    setSent(true);
    setError(null);
    document.getElementById(FIELD_ID.code)?.focus();
  }

  const needCode = !(props.emailWithoutCode && checkType === 2);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busyRef.current) return;
    const v = validateLookup({ checkType, ...values }, { requireCode: needCode });
    if (!v.ok) {
      showFieldError(v.field, strings[v.key]);
      return;
    }
    setError(null);
    setBusyBoth(true);
    const { expoId, urlId, ty, variant, list, f, define, next } = hidden;
    let leaving = false;
    const reply = await submit<LookupOutcome>(
      '/api/lookup',
      { expoId, urlId, ty, variant, list, f, define, next, checkType, ...contact(v.value), code: v.value.code, pageLang: lang },
      {
        // Stays busy while the browser leaves (pageshow resets it if the visitor comes back).
        leave: (out) => {
          leaving = true;
          if (out.outcome === 'navigate') write(browserSession(), out.session, out.removeSession);
        },
        invalid: (out) => showFieldError(out.field as LookupField, out.message),
      },
    );
    if (leaving) return;
    setBusyBoth(false);
    // null: handled above (a transport failure's or a refusal's toast is on screen); values stay as typed.
    const out = reply?.data;
    if (!out) return;
    switch (out.outcome) {
      case 'select':
        write(browserSession(), out.session, out.removeSession);
        if (out.rows.length > 0) setRows(out.rows);
        else showNotice({ tone: 'error', message: strings['search.nodata'] });
        break;
      case 'nodata':
        showNotice({ tone: 'error', message: out.message || strings['search.nodata'] });
        break;
      case 'failed':
        // spec §8: a failed verify or lookup shows no message; every typed value stays. A code
        // that can no longer work says so, and the send button is usable at once.
        if (out.newCode) {
          startResendCountdown(0);
          setSent(true);
        }
        if (out.message) showFieldError('code', out.message);
        break;
    }
  }

  /** The error wiring of a field: aria-invalid, its description and (no-JS) autofocus. */
  const aria = (field: LookupField) =>
    error?.field === field
      ? { 'aria-invalid': true as const, 'aria-describedby': errorId(field), autoFocus: !enhanced }
      : {};
  const errorText = (field: LookupField) =>
    error?.field === field ? (
      <p id={errorId(field)} className="lookup-error" role="alert">
        {error.message}
      </p>
    ) : null;

  /** The phone or e-mail field: label, input and its error (one shape for both modes). */
  const contactField = (
    name: 'phone' | 'email',
    type: 'tel' | 'email',
    autoComplete: string,
    label: string,
    placeholder: string,
  ) => (
    <div className="lookup-field">
      <label htmlFor={FIELD_ID[name]}>{label}</label>
      <input
        id={FIELD_ID[name]}
        name={name}
        type={type}
        inputMode={type}
        autoComplete={autoComplete}
        required
        placeholder={placeholder}
        value={values[name]}
        onChange={onInput(name)}
        {...aria(name)}
      />
      {errorText(name)}
    </div>
  );

  // A catalogue text the contract may not carry yet (see the report); empty means "show nothing".
  const optional = (key: string): string => (strings as Readonly<Partial<Record<string, string>>>)[key] ?? '';

  return (
    <div className="lookup">
      {notice && (
        <p
          key={notice.id}
          ref={noticeRef}
          className={notice.notice.tone === 'info' ? 'notice info' : 'notice'}
          role={notice.notice.tone === 'info' ? 'status' : 'alert'}
        >
          {notice.notice.message}
        </p>
      )}
      <form
        ref={formRef}
        className="lookup-form"
        method="post"
        action="/api/lookup"
        noValidate={enhanced}
        onSubmit={onSubmit}
      >
        {needCode && (
          // Enter in a field submits with the form's FIRST submit button; without this one that
          // would be the send-code button. Hidden from sight, tab order and screen readers.
          <button type="submit" className="lookup-default" tabIndex={-1} aria-hidden="true">
            {strings['search.submit']}
          </button>
        )}
        {HIDDEN_NAMES.map((name) => (
          <input key={name} type="hidden" name={name} value={hidden[name]} />
        ))}
        <input type="hidden" name="checkType" value={checkType} />

        {modes.length > 1 && (
          <div className={props.tabs ? 'lookup-modes lookup-tabs' : 'lookup-modes'}>
            {modes.map((mode) => (
              <a
                key={mode}
                className="lookup-mode"
                href={props.modeHrefs[mode]}
                aria-current={checkTypeOf(mode) === checkType || undefined}
                onClick={(e) => switchMode(e, mode)}
              >
                {strings[mode === 'phone' ? 'search.modePhone' : 'search.modeEmail']}
              </a>
            ))}
          </div>
        )}

        {checkType === 1 ? (
          <>
            <div className="lookup-field">
              <label id={`${FIELD_ID.areaCode}-label`} htmlFor={FIELD_ID.areaCode}>
                {strings['search.country']}
              </label>
              {enhanced ? (
                <CountryPicker
                  id={FIELD_ID.areaCode}
                  labelId={`${FIELD_ID.areaCode}-label`}
                  value={values.areaCode}
                  countries={countries}
                  lang={lang}
                  strings={{
                    title: strings['search.country'],
                    search: strings['search.countrySearch'],
                    placeholder: strings['search.selectCountry'],
                    close: strings['app.close'],
                    none: optional('search.countryNone'),
                  }}
                  invalid={error?.field === 'areaCode'}
                  describedBy={error?.field === 'areaCode' ? errorId('areaCode') : undefined}
                  onChange={(code) => setValue('areaCode', code)}
                />
              ) : (
                <select
                  id={FIELD_ID.areaCode}
                  name="areaCode"
                  required
                  value={values.areaCode}
                  onChange={onInput('areaCode')}
                  {...aria('areaCode')}
                >
                  <option value="">{strings['search.selectCountry']}</option>
                  {countries.map((c) => (
                    <option key={c.code + c.en} value={c.code}>
                      {countryEntryText(c, lang)}
                    </option>
                  ))}
                </select>
              )}
              {errorText('areaCode')}
            </div>
            {contactField('phone', 'tel', 'tel-national', strings['search.phone'], strings['search.phonePlach'])}
          </>
        ) : (
          contactField('email', 'email', 'email', strings['search.email'], strings['search.emailPlach'])
        )}

        {needCode && (
          <div className="lookup-field">
            <label htmlFor={FIELD_ID.code}>{strings['search.code']}</label>
            <div className="lookup-code-row">
              <input
                id={FIELD_ID.code}
                name="code"
                inputMode="numeric"
                pattern="[0-9]*"
                autoComplete="one-time-code"
                required
                placeholder={strings['search.codePlach']}
                value={values.code}
                onChange={onInput('code')}
                {...aria('code')}
              />
              <SendCodeButton
                strings={strings}
                enhanced={enhanced}
                sent={sent}
                initialLeft={props.resendIn}
                prepare={prepareSend}
                onSent={onSent}
                onFieldError={showFieldError}
              />
            </div>
            {errorText('code')}
          </div>
        )}

        {/* the page's own markup for the form (the Turnstile widget): inside it, so a post before hydration carries its token */}
        {children}
        <button type="submit" className="btn lookup-submit" aria-disabled={busy || undefined}>
          {busy ? strings['app.loading'] : strings['search.submit']}
        </button>
      </form>
      <ToastHost strings={toastStrings} />
      {rows && (
        <SelectPopup
          rows={rows}
          title={strings['search.selectTitle']}
          closeLabel={strings['app.close']}
          onClose={() => setRows(null)}
        />
      )}
    </div>
  );
}

/** The contact fields' current values in the DOM (typed before hydration). */
function domValues(form: HTMLFormElement): Partial<LookupValues> {
  const out: Partial<LookupValues> = {};
  for (const name of VALUE_NAMES) {
    const el = form.elements.namedItem(name);
    if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) out[name] = el.value;
  }
  return out;
}
