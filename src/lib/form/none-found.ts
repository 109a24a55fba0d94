/**
 * A lookup that found nothing leads to the form (spec §4 "zero records → the variant form"); the
 * form then says what was searched and offers another contact, so nobody registers twice under a
 * second address. The lookup marks the way with `?found=0`; the form shows the note only to the
 * verified contact, with that contact's own value (nothing from the URL is shown).
 */
export const NONE_FOUND_PARAM = 'found';

/** @example withNoneFound('/form/22001/MjAwMQ/visitor') // '/form/22001/MjAwMQ/visitor?found=0' */
export function withNoneFound(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${NONE_FOUND_PARAM}=0`;
}

/** Whether the page was reached from a lookup that found nothing. */
export function cameFromNoneFound(params: URLSearchParams): boolean {
  return params.get(NONE_FOUND_PARAM) === '0';
}
