/**
 * A no-JavaScript form refusal shown whole: the register API flashes every failing
 * field at once (src/lib/page/flash.ts `errors`), and the form shows each field's own message next
 * to it plus a summary at the top whose links lead to the inputs. Pure.
 */
import { inputNames } from './fields';
import type { FormField } from './schema';

/** A flashed field error: the failing input's name and a catalogue key or the server's text. */
export interface FlashedError {
  field: string;
  key: string | null;
  text: string | null;
}

/** One field's message as the form shows it. */
export interface ShownError {
  /** the field's key */
  field: string;
  /** the failing input's name */
  name: string;
  message: string;
  /** the id of the input the summary links to */
  anchor: string;
}

/** The id an input of the form carries (Field.astro): `f-` and its name, safe for an id and a URL fragment. */
export function inputId(name: string): string {
  return `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/**
 * The flashed errors by field, in form order, one per field (the first for it wins); errors
 * naming no field of the form are dropped.
 * @example shownErrors([uname], [{ field: 'uname', key: 'form.supplement', text: null }], t)[0]?.anchor // 'f-uname'
 */
export function shownErrors(
  fields: readonly FormField[],
  errors: readonly FlashedError[],
  translate: (key: string) => string,
): ShownError[] {
  return fields.flatMap((f) => {
    const e = errors.find((x) => x.field === f.key || inputNames(f).includes(x.field));
    if (!e) return [];
    const message = e.key ? translate(e.key) : (e.text ?? '');
    // A radio group's name is its key, its inputs are numbered (Field.astro): link to the first.
    const anchor = inputId(f.type === 'radio' && e.field === f.key ? `${f.key}.0` : e.field);
    return [{ field: f.key, name: e.field, message, anchor }];
  });
}
