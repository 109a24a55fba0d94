/**
 * Enhances the server-rendered registration form (FormScreen.astro) once the page is idle:
 * inline checks with the same rules as the server (src/lib/form-validation.ts, spec §5), the
 * failing field focused; every typed value kept in session storage (a reload or a network
 * error loses nothing); a JSON submit that goes straight to the credential page (replace,
 * spec §2.1); the 20001 update prompt without a reload (spec §5). Without JavaScript the form
 * posts and the server does all of this with a 303 round trip.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormField } from '../lib/form-schema';
import { validateField, validateForm, type FieldFailure } from '../lib/form-validation';
import type { Lang } from '../lib/languages';
import { postJson } from './call';
import { fillEmpty, focusInput, keptValues, loadValues, saveValues, showFieldError, syncOtherBoxes, formValues } from './form-dom';
import type { FormStringKey, RegisterOutcome } from './form-types';
import { browserSession } from './session';
import { showToast } from '../stores/toast';
import { TOAST_MS } from '../lib/toast';
import './form.css';

export interface FormEnhanceProps {
  formId: string;
  fields: FormField[];
  lang: Lang;
  /** the verified contact's inputs: read-only, never stored */
  locked: string[];
  /** where "do not update" goes (the lookup page) */
  noUpdateHref: string;
  strings: Record<FormStringKey, string>;
}

export default function FormEnhance(props: FormEnhanceProps) {
  const { formId, fields, lang, locked, strings } = props;
  const [prompt, setPrompt] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const busy = useRef(false);
  const promptRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    const store = browserSession();
    const key = form.dataset['storage'] ?? `form:${location.pathname}`;
    const submit = form.querySelector<HTMLButtonElement>('.reg-submit');
    form.noValidate = true;
    // The server's own prompt (no-JS round trip) is replaced by the island's.
    form.querySelector('#update-prompt')?.remove();
    fillEmpty(form, loadValues(store, key), locked);
    syncOtherBoxes(form);

    const show = (failure: FieldFailure | null, field: FormField) =>
      showFieldError(form, field.key, failure?.name ?? field.key, failure ? strings[failure.message] : '');
    const fieldOf = (name: string) => fields.find((f) => name === f.key || name.startsWith(`${f.key}.`));

    const onChange = (e: Event) => {
      saveValues(store, key, keptValues(form, locked));
      syncOtherBoxes(form);
      const name = (e.target as HTMLInputElement | null)?.name ?? '';
      const field = fieldOf(name);
      // Choices re-check at once; typed fields on leaving them (focusout).
      if (field && e.type === 'change' && ['checkbox', 'radio', 'select', 'privacy', 'idDocument'].includes(field.type)) {
        show(validateField(field, formValues(form), { lang }), field);
      }
    };
    const onBlur = (e: FocusEvent) => {
      const name = (e.target as HTMLInputElement | null)?.name ?? '';
      const field = fieldOf(name);
      if (!field) return;
      const values = formValues(form);
      // A field left empty on the way through is not an error yet; a wrong value is.
      const typed = (values[name] ?? '').trim() !== '';
      const failure = validateField(field, values, { lang });
      if (!failure || typed) show(failure, field);
    };

    const send = async (update: boolean) => {
      if (busy.current) return;
      const values = formValues(form);
      const checked = validateForm(fields, values, { lang });
      for (const f of fields) show(checked.ok ? null : (checked.failures.find((x) => x.field === f.key) ?? null), f);
      if (!checked.ok) {
        focusInput(form, checked.failure.name);
        return;
      }
      busy.current = true;
      setRefusal(null);
      if (submit) {
        submit.disabled = true;
        submit.textContent = strings['form.submitting'];
      }
      try {
        const reply = await postJson<RegisterOutcome>(form.action, update ? { ...values, update: '1' } : values);
        const data = reply?.data;
        if (!reply || !data) {
          // Network failure (toast shown by postJson) or a broken page: every value stays in the form.
          if (reply) setRefusal(reply.msg ?? strings['error.generic']);
          return;
        }
        switch (data.outcome) {
          case 'navigate':
            if (reply.code === 200) store?.removeItem(key);
            if (data.replace) location.replace(data.location);
            else location.assign(data.location);
            return;
          case 'invalid': {
            const field = fields.find((f) => f.key === data.field);
            if (field) showFieldError(form, field.key, data.name, data.message);
            focusInput(form, data.name);
            return;
          }
          case 'update':
            setPrompt(data.message);
            return;
          case 'refused':
            setRefusal(data.message);
            showToast({ key: null, text: data.message, durationMs: TOAST_MS });
        }
      } finally {
        busy.current = false;
        if (submit) {
          submit.disabled = false;
          submit.textContent = strings['form.submit'];
        }
      }
    };
    const onSubmit = (e: SubmitEvent) => {
      e.preventDefault();
      const submitter = e.submitter as HTMLButtonElement | null;
      void send(submitter?.name === 'update');
    };
    const onUpdate = () => {
      setPrompt(null);
      void send(true);
    };
    form.addEventListener('input', onChange);
    form.addEventListener('change', onChange);
    form.addEventListener('focusout', onBlur);
    form.addEventListener('submit', onSubmit);
    document.addEventListener('form:update', onUpdate);
    return () => {
      form.removeEventListener('input', onChange);
      form.removeEventListener('change', onChange);
      form.removeEventListener('focusout', onBlur);
      form.removeEventListener('submit', onSubmit);
      document.removeEventListener('form:update', onUpdate);
    };
  }, [formId, fields, lang, locked, strings]);

  useEffect(() => {
    if (prompt) promptRef.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [prompt]);

  return (
    <div className="form-enhance" aria-live="polite">
      {refusal && (
        <p className="notice" role="alert">
          {refusal}
        </p>
      )}
      {prompt && (
        <div className="update-prompt" role="alertdialog" aria-labelledby="update-text-js" ref={promptRef}>
          <p id="update-text-js">{prompt}</p>
          <div className="update-actions">
            <button type="button" className="btn" onClick={() => document.dispatchEvent(new Event('form:update'))}>
              {strings['form.update']}
            </button>
            <a className="btn secondary" href={props.noUpdateHref}>
              {strings['form.noUpdate']}
            </a>
          </div>
        </div>
      )}
    </div>
  );
}
