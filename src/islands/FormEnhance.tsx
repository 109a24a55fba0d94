/**
 * Enhances the server-rendered registration form (FormScreen.astro) once the page is idle:
 * inline checks with the same rules as the server (src/lib/form/validation.ts, spec §5), the
 * failing field focused; every typed value kept in session storage (a reload or a network
 * error loses nothing); a JSON submit that goes straight to the credential page (replace,
 * spec §2.1); the 20001 update prompt without a reload (spec §5). Without JavaScript the form
 * posts and the server does all of this with a 303 round trip.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormField } from '../lib/form/schema';
import { validateField, validateForm, type FieldFailure } from '../lib/form/validation';
import type { Lang } from '../lib/page/languages';
import { submit as post, toastOf } from './call';
import {
  fillEmpty,
  focusInput,
  keptValues,
  loadValues,
  saveValues,
  showFieldError,
  syncOtherBoxes,
  formValues,
} from './form-dom';
import type { FormStringKey, RegisterOutcome } from './form-types';
import { browserSession } from './session';
import './form.css';

/** Field types whose value is chosen, not typed: checked as soon as they change. */
const CHOICES: ReadonlySet<string> = new Set(['checkbox', 'radio', 'select', 'privacy']);

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
    // The server's own prompt (no-JS round trip) is replaced by the island's.
    form.querySelector('#update-prompt')?.remove();
    fillEmpty(form, loadValues(store, key), locked);
    syncOtherBoxes(form);

    const show = (failure: FieldFailure | null, field: FormField) =>
      showFieldError(form, field.key, failure?.name ?? field.key, failure ? strings[failure.message] : '');
    const fieldOf = (name: string) => fields.find((f) => name === f.key || name.startsWith(`${f.key}.`));

    // Messages change while typing only to clear (a fix shows at once); a new message shows when
    // a field is left with a wrong value, or a choice is made wrongly. Leaving a field for the
    // submit button changes nothing: the submit checks everything, and a message appearing or
    // vanishing under the pointer would move the button away from the click.
    const onChange = (e: Event) => {
      saveValues(store, key, keptValues(form, locked));
      syncOtherBoxes(form);
      const name = (e.target as HTMLInputElement | null)?.name ?? '';
      const field = fieldOf(name);
      if (!field) return;
      const failure = validateField(field, formValues(form), { lang });
      if (!failure) show(null, field);
      else if (e.type === 'change' && failure.name === name && CHOICES.has(field.type)) show(failure, field);
    };
    // Issue 14: a field is left on the finger-down of a tap on the next control. Its message has
    // a line kept for it (form.css), and while the finger is down it waits: nothing under the
    // finger moves between down and up (a message longer than its line would), so the tap lands.
    let pressed = false;
    let later: (() => void) | null = null;
    const onDown = () => {
      pressed = true;
    };
    const onUp = () => {
      pressed = false;
      if (later) setTimeout(later, 0);
      later = null;
    };
    const onBlur = (e: FocusEvent) => {
      if (e.relatedTarget instanceof HTMLButtonElement && e.relatedTarget.type === 'submit') return;
      const name = (e.target as HTMLInputElement | null)?.name ?? '';
      const field = fieldOf(name);
      if (!field) return;
      const values = formValues(form);
      // A field left empty on the way through is not an error yet; a wrong value is.
      const failure = validateField(field, values, { lang });
      if (failure && failure.name === name && (values[name] ?? '').trim() !== '') {
        later = () => show(failure, field);
        if (!pressed) onUp();
      }
    };

    const send = async (update: boolean) => {
      if (busy.current) return;
      // The server's summary of a no-JS refusal: from here on the messages are the island's, inline.
      document.getElementById('form-errors')?.remove();
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
        const reply = await post<RegisterOutcome>(form.action, update ? { ...values, update: '1' } : values, {
          leave: (_, r) => r.code === 200 && store?.removeItem(key),
          invalid: (data) => {
            if (data.outcome !== 'invalid') return;
            const field = fields.find((f) => f.key === data.field);
            if (field) showFieldError(form, field.key, data.name, data.message);
            focusInput(form, data.name);
          },
          notice: (r) => setRefusal(r.msg ?? strings['error.generic']),
        });
        // null: handled above, or a network failure (its toast is on screen): every value stays in the form.
        const data = reply?.data;
        if (!data) return;
        switch (data.outcome) {
          case 'update':
            setPrompt(data.message);
            return;
          case 'refused':
            setRefusal(data.message);
            toastOf(reply);
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
    // Pointer events are read in the capture phase, before a button's own click.
    const listeners: [EventTarget, string, EventListener, boolean?][] = [
      [form, 'input', onChange as EventListener],
      [form, 'change', onChange as EventListener],
      [form, 'focusout', onBlur as EventListener],
      [document, 'pointerdown', onDown as EventListener, true],
      [document, 'pointerup', onUp as EventListener, true],
      [document, 'pointercancel', onUp as EventListener, true],
      [form, 'submit', onSubmit as EventListener],
      [document, 'form:update', onUpdate as EventListener],
    ];
    for (const [target, type, fn, capture] of listeners) target.addEventListener(type, fn, capture);
    return () => {
      for (const [target, type, fn, capture] of listeners) target.removeEventListener(type, fn, capture);
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
