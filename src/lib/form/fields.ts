/**
 * What the browser's form islands need of a field definition: names, focus, texts. No zod here
 * (form-schema.ts validates definitions on the server), so the form page's JavaScript stays small
 * (the schema module added about 26 KB gzip to every form page).
 */
import type { Lang } from '../core/languages';
import type { FormField, LocalText } from './schema';

/** The value posted for a ticked 'other' choice (its text goes in `{key}.other`). */
export const OTHER_VALUE = '__other';

/**
 * A local text in the page language: the language itself; then Chinese for the Chinese pages
 * (zh, tw) and English for every other page; then the remaining one of the two.
 * @example textOf({ zh: '姓名', en: 'Name' }, 'thai') // 'Name'
 * @example textOf({ zh: '姓名', en: 'Name' }, 'tw') // '姓名'
 */
export function textOf(text: LocalText | undefined, lang: Lang): string {
  if (!text) return '';
  const chinese = lang === 'zh' || lang === 'tw';
  return text[lang] ?? (chinese ? (text.zh ?? text.en) : (text.en ?? text.zh)) ?? '';
}

/** The form input names a field posts (its value, and its side values). */
export function inputNames(f: FormField): string[] {
  switch (f.type) {
    case 'phone':
      return [f.key, `${f.key}.areaCode`];
    case 'idDocument':
      return [`${f.key}.type`, f.key];
    case 'checkbox':
      return [
        ...f.options.map((_, i) => `${f.key}.${i}`),
        ...(f.other ? [`${f.key}.${OTHER_VALUE}`, `${f.key}.other`] : []),
      ];
    case 'select':
    case 'radio':
      return f.other ? [f.key, `${f.key}.other`] : [f.key];
    default:
      return [f.key];
  }
}

/** The input that receives focus when a field fails (spec §5: the failing field receives focus). */
export function focusName(f: FormField): string {
  if (f.type === 'checkbox') return f.options.length > 0 ? `${f.key}.0` : `${f.key}.${OTHER_VALUE}`;
  return f.key;
}
