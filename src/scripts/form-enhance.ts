/**
 * Enhances the server-rendered registration form (FormScreen.astro) once its script has loaded:
 * inline checks with the same rules as the server (src/lib/form/validation.ts, spec §5), the
 * failing field focused; every typed value kept in session storage (a reload or a network
 * error loses nothing); a JSON submit that goes straight to the credential page (replace,
 * spec §2.1); the 20001 update prompt without a reload (spec §5). Without JavaScript (or before
 * this loads) the form posts and the server does all of this with a 303 round trip.
 *
 * Plain DOM, not a React island (issue 24: a form page's JavaScript under 70 KB gzip, React DOM
 * alone is about 66): the work was all on the server's markup already; what it draws (a refusal,
 * the update prompt, the toast) is a few elements. Its settings come from the server as JSON in
 * `data-props` of the `.form-enhance` element (src/components/form/FormEnhance.astro).
 */
import type { FormField } from '../lib/form/schema';
import { validateField, validateForm, type FieldFailure } from '../lib/form/validation';
import type { Lang } from '../lib/core/languages';
import { submit as post, toastOf } from '../islands/call';
import {
  fillEmpty,
  focusInput,
  keptValues,
  loadValues,
  saveValues,
  showFieldError,
  syncOtherBoxes,
  formValues,
} from '../islands/form-dom';
import type { FormStringKey, RegisterOutcome } from '../islands/form-types';
import { browserSession } from '../islands/session';
import { mountToast } from './toast-host';

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
  /** the toast's catalogue texts (src/islands/strings.ts TOAST_KEYS) */
  toastStrings: Record<string, string>;
}

/** An element with a class and text (the few this script draws). */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string>, text = ''): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

/** Wires the form of `props.formId`; `host` (the `.form-enhance` element) shows the refusal and the update prompt. */
export function enhanceForm(host: HTMLElement, props: FormEnhanceProps): void {
  const { formId, fields, lang, locked, strings } = props;
  const form = document.getElementById(formId);
  if (!(form instanceof HTMLFormElement)) return;
  const store = browserSession();
  const key = form.dataset['storage'] ?? `form:${location.pathname}`;
  const submit = form.querySelector<HTMLButtonElement>('.reg-submit');
  let busy = false;

  /** The refusal (a notice) and the update prompt: at most one of each, in the host. */
  const setRefusal = (message: string | null) => {
    host.querySelector(':scope > .notice')?.remove();
    if (message) host.prepend(el('p', { class: 'notice', role: 'alert' }, message));
  };
  const setPrompt = (message: string | null) => {
    host.querySelector(':scope > .update-prompt')?.remove();
    if (!message) return;
    const box = el('div', { class: 'update-prompt', role: 'alertdialog', 'aria-labelledby': 'update-text-js' });
    const update = el('button', { type: 'button', class: 'btn' }, strings['form.update']);
    update.addEventListener('click', () => {
      setPrompt(null);
      void send(true);
    });
    const actions = el('div', { class: 'update-actions' });
    actions.append(update, el('a', { class: 'btn secondary', href: props.noUpdateHref }, strings['form.noUpdate']));
    box.append(el('p', { id: 'update-text-js' }, message), actions);
    host.append(box);
    update.focus();
  };

  // The server's own prompt (no-JS round trip) is replaced by the script's.
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

  async function send(update: boolean): Promise<void> {
    if (busy) return;
    // The server's summary of a no-JS refusal: from here on the messages are the script's, inline.
    document.getElementById('form-errors')?.remove();
    const values = formValues(form as HTMLFormElement);
    const checked = validateForm(fields, values, { lang });
    for (const f of fields) show(checked.ok ? null : (checked.failures.find((x) => x.field === f.key) ?? null), f);
    if (!checked.ok) {
      focusInput(form as HTMLFormElement, checked.failure.name);
      return;
    }
    busy = true;
    setRefusal(null);
    if (submit) {
      submit.disabled = true;
      submit.textContent = strings['form.submitting'];
    }
    try {
      const reply = await post<RegisterOutcome>((form as HTMLFormElement).action, update ? { ...values, update: '1' } : values, {
        leave: (_, r) => r.code === 200 && store?.removeItem(key),
        invalid: (data) => {
          if (data.outcome !== 'invalid') return;
          const field = fields.find((f) => f.key === data.field);
          if (field) showFieldError(form as HTMLFormElement, field.key, data.name, data.message);
          focusInput(form as HTMLFormElement, data.name);
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
      busy = false;
      if (submit) {
        submit.disabled = false;
        submit.textContent = strings['form.submit'];
      }
    }
  }
  const onSubmit = (e: SubmitEvent) => {
    e.preventDefault();
    const submitter = e.submitter as HTMLButtonElement | null;
    void send(submitter?.name === 'update');
  };
  // Pointer events are read in the capture phase, before a button's own click.
  form.addEventListener('input', onChange);
  form.addEventListener('change', onChange);
  form.addEventListener('focusout', onBlur);
  document.addEventListener('pointerdown', onDown, true);
  document.addEventListener('pointerup', onUp, true);
  document.addEventListener('pointercancel', onUp, true);
  form.addEventListener('submit', onSubmit);
}

/** The page's form and toast, from the server's settings; a page without them is left alone. */
function start(): void {
  const host = document.querySelector<HTMLElement>('.form-enhance[data-props]');
  if (!host) return;
  const props = JSON.parse(host.dataset['props'] ?? '{}') as FormEnhanceProps;
  const region = document.querySelector<HTMLElement>('.toast-region[data-toast-host]');
  if (region) mountToast(region, props.toastStrings);
  enhanceForm(host, props);
  host.dataset['enhanced'] = '';
}

start();
