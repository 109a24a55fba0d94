import './lookup.css';
import { useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { FIELD_ID, HIDDEN_NAMES, errorId, type LookupFormProps, type LookupOutcome, type LookupValues } from './lookup-types';
import { submit } from './call';
import CountryPicker from './CountryPicker';
import ToastHost from './ToastHost';
import { browserSession, checkTypeOf, isModifiedClick, storeCheckType, storedCheckType, write } from './session';
import { countryEntryText, unpackCountries, withInternational } from '../lib/form/countries';
import { resolveLang } from '../lib/core/languages';
import { validateLookup, type CheckType, type LookupField } from '../lib/lookup/validation';
import type { ContactMode } from '../lib/core/variants';
import {
  $areaCodes,
  $checkType,
  $codeSent,
  $fieldError,
  $focusRequest,
  $lookupReady,
  $lookupValues,
  $selectRows,
  showFieldError,
  startResendCountdown,
} from '../stores/lookup';
import { showToast } from '../stores/toast';
import { TOAST_MS } from '../lib/page/toast';

const VALUE_NAMES = ['areaCode', 'phone', 'email', 'code'] as const;

type Notice = NonNullable<LookupFormProps['notice']>;

/**
 * The contact-lookup form of spec §2.1 and §4, a React island (client:idle). Rendered on the
 * server it is a complete no-JS form posting to /api/lookup (and /api/send-code through the
 * send-code button, an island of its own passed in as the `send` slot); hydrated, it is a view of
 * the lookup stores (src/stores/lookup.ts: the mode, the typed values, the field error) and
 * enhances the same markup: in-place mode switch remembered in session storage, the searchable
 * country picker, inline validation, JSON submit whose several matches fill the selection popup
 * island's rows. Nothing reads window, storage or the stores during render before hydration, so
 * hydration matches the server's HTML; what was typed before hydration is read from the DOM.
 */
export default function LookupForm(props: LookupFormProps & { children?: ReactNode; send?: ReactNode }) {
  const { hidden, modes, strings, toastStrings, children, send } = props;
  const lang = resolveLang(props.lang);
  const countries = useMemo(() => unpackCountries(props.countries, lang), [props.countries, lang]);
  const codes = useMemo(() => countries.map((c) => c.code), [countries]);
  const [enhanced, setEnhanced] = useState(false);
  const liveCheckType = useStore($checkType);
  const liveValues = useStore($lookupValues);
  const liveError = useStore($fieldError);
  const focusRequest = useStore($focusRequest);
  // The server's state (the props) until hydrated, the stores after: the first render matches the HTML.
  const checkType: CheckType = enhanced ? liveCheckType : props.checkType;
  const values: LookupValues = enhanced ? liveValues : props.values;
  const error = enhanced ? liveError : props.error;
  const [notice, setNotice] = useState<{ id: number; notice: Notice } | null>(props.notice ? { id: 0, notice: props.notice } : null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const busyRef = useRef(false);

  useEffect(() => {
    // client:idle hydrates late: keep whatever was typed before (read from the DOM, not the props).
    const typed = formRef.current ? domValues(formRef.current) : {};
    const touched = Object.entries(typed).some(([k, v]) => v !== props.values[k as keyof LookupValues]);
    let mode: CheckType = props.checkType;
    // spec §2.1: the stored mode wins over the default, but not over an explicit choice or typing.
    if (!props.checkTypeExplicit && !touched) {
      const stored = storedCheckType(browserSession(), modes);
      if (stored !== null) mode = stored;
    }
    $areaCodes.set(codes);
    $checkType.set(mode);
    $lookupValues.set({ ...props.values, ...typed });
    $fieldError.set(props.error ? { ...props.error, seq: 0 } : null);
    if (props.resendIn > 0) $codeSent.set(true);
    $lookupReady.set(true);
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

  // spec §5: a message shown in the browser moves focus to its field (drawn by now, with aria-invalid).
  useEffect(() => {
    if (enhanced && liveError && liveError.seq > 0) document.getElementById(FIELD_ID[liveError.field])?.focus();
  }, [liveError]);
  useEffect(() => {
    if (focusRequest) document.getElementById(focusRequest.id)?.focus();
  }, [focusRequest]);

  function setBusyBoth(b: boolean) {
    busyRef.current = b;
    setBusy(b);
  }

  function showNotice(n: Notice) {
    setNotice((prev) => ({ id: (prev?.id ?? 0) + 1, notice: n }));
  }

  function setValue(name: keyof LookupValues, value: string) {
    $lookupValues.set({ ...$lookupValues.get(), [name]: value });
    if ($fieldError.get()?.field === name) $fieldError.set(null);
  }
  const onInput = (name: keyof LookupValues) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setValue(name, e.target.value);

  function switchMode(e: MouseEvent<HTMLAnchorElement>, mode: ContactMode) {
    if (isModifiedClick(e)) return;
    e.preventDefault();
    const next = checkTypeOf(mode);
    storeCheckType(browserSession(), next);
    if (next === $checkType.get()) return;
    // spec §2.1: changing the mode clears the typed contact.
    $checkType.set(next);
    $lookupValues.set({ ...$lookupValues.get(), phone: '', email: '', code: '' });
    $fieldError.set(null);
    setNotice(null);
  }

  const needCode = !(props.emailWithoutCode && checkType === 2);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    // The send-code button before its island hydrated: its plain post to /api/send-code.
    if (submitter instanceof HTMLButtonElement && submitter.classList.contains('lookup-send')) return;
    e.preventDefault();
    if (busyRef.current) return;
    const typed = $lookupValues.get();
    const v = validateLookup(withInternational({ checkType, ...typed }, codes), { requireCode: needCode });
    if (!v.ok) {
      showFieldError(v.field, strings[v.key]);
      return;
    }
    $fieldError.set(null);
    // A phone typed in international form ('+66 8…') shows as its country and national number.
    if (v.value.checkType === 1) $lookupValues.set({ ...typed, areaCode: v.value.areaCode, phone: v.value.phone });
    setBusyBoth(true);
    const { expoId, urlId, ty, variant, list, f, define, next } = hidden;
    const contact = checkType === 1 ? { areaCode: v.value.areaCode, phone: v.value.phone, email: '' } : { areaCode: '', phone: '', email: v.value.email };
    let leaving = false;
    const reply = await submit<LookupOutcome>(
      '/api/lookup',
      { expoId, urlId, ty, variant, list, f, define, next, checkType, ...contact, code: v.value.code, pageLang: lang },
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
        if (out.rows.length > 0) $selectRows.set(out.rows);
        else showNotice({ tone: 'error', message: strings['search.nodata'] });
        break;
      case 'nodata':
        showNotice({ tone: 'error', message: out.message || strings['search.nodata'] });
        break;
      case 'failed':
        // spec §8: a failed verify or lookup shows no message; every typed value stays. A code
        // that can no longer work says so, and the send button is usable at once.
        if (out.newCode) {
          $codeSent.set(true);
          startResendCountdown(0);
        }
        if (out.message) showFieldError('code', out.message);
        break;
    }
  }

  /** The error wiring of a field: aria-invalid, its description and (no-JS) autofocus. */
  const aria = (field: LookupField) =>
    error?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': errorId(field), autoFocus: !enhanced } : {};
  const errorText = (field: LookupField) =>
    error?.field === field ? (
      <p id={errorId(field)} className="lookup-error" role="alert">
        {error.message}
      </p>
    ) : null;

  /** The phone or e-mail field: label, input and its error (one shape for both modes). */
  const contactField = (name: 'phone' | 'email', type: 'tel' | 'email', autoComplete: string, label: string, placeholder: string) => (
    <div className="lookup-field" data-contact="">
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

  return (
    <div className="lookup" data-lookup="" data-enhanced={enhanced ? '' : undefined}>
      {notice && (
        <p key={notice.id} ref={noticeRef} className={notice.notice.tone === 'info' ? 'notice info' : 'notice'} role={notice.notice.tone === 'info' ? 'status' : 'alert'}>
          {notice.notice.message}
        </p>
      )}
      <form ref={formRef} className="lookup-form" method="post" action="/api/lookup" noValidate={enhanced} onSubmit={(e) => void onSubmit(e)}>
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
                data-mode={mode}
                aria-current={checkTypeOf(mode) === checkType ? 'true' : undefined}
                onClick={(e) => switchMode(e, mode)}
              >
                {strings[mode === 'phone' ? 'search.modePhone' : 'search.modeEmail']}
              </a>
            ))}
          </div>
        )}

        {checkType === 1 ? (
          <>
            <div className="lookup-field" data-contact="">
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
                    none: strings['search.countryNone'] ?? '',
                  }}
                  invalid={error?.field === 'areaCode'}
                  describedBy={error?.field === 'areaCode' ? errorId('areaCode') : undefined}
                  onChange={(code) => setValue('areaCode', code)}
                />
              ) : (
                <select id={FIELD_ID.areaCode} name="areaCode" required defaultValue={values.areaCode} {...aria('areaCode')}>
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
          <div className="lookup-field" data-code="">
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
              {send}
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
