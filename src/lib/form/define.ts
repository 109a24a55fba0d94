/**
 * A registration link's custom label (spec §3 euDefine, §7 "getForm: define, eId, fId"): a link
 * may carry `?define=VIP`; the form asks the organiser (getForm) whether that label is one of
 * the customer url's, shows its name, and the registration carries it as `euDefine`. Only a label
 * the list can show is asked about (shorter than 20 characters, spec §2.1); anything else is
 * ignored silently and the form is the normal one.
 */
import { charLength, MAX_DEFINE_CHARS } from '../core/labels';
import type { FormDefine, Upstream } from '../contract';

/** The query parameter and the hidden field that carry the label. */
export const DEFINE_PARAM = 'define';

/** What getForm answers for a label the organiser set up for the url. */
export type { FormDefine } from '../contract';

/** The organiser's getForm call (docs/upstream.md "Messaging app"): null when the label is not one of that url's. */
export type DefinePort = Pick<Upstream, 'getForm'>;

/**
 * The label a link or a post carries, when it is one worth asking about: trimmed, non-empty,
 * shorter than 20 characters (spec §2.1), without control characters; else null.
 * @example defineParam(' VIP ') // 'VIP'
 * @example defineParam('x'.repeat(20)) // null
 */
export function defineParam(raw: string | null | undefined): string | null {
  const v = (raw ?? '').slice(0, 200).trim();
  if (v === '' || charLength(v) >= MAX_DEFINE_CHARS) return null;
  return /[\u0000-\u001f\u007f]/.test(v) ? null : v;
}

/**
 * The label as the organiser confirms it for this url, or null: an unknown label, a refusal or
 * a fault of the call all read as none (the form is then the normal one, never an error).
 */
export async function confirmedDefine(port: DefinePort, p: { expoId: number; fId: number; raw: string | null | undefined }): Promise<FormDefine | null> {
  const define = defineParam(p.raw);
  if (define === null) return null;
  const got = await port.getForm({ expoId: p.expoId, fId: p.fId, define }).catch(() => null);
  return got !== null && got.define === define ? { define, name: got.name.slice(0, 100) } : null;
}

/**
 * The forms a label applies to: the new registration (`form`, `/proving`). Updates, repairs,
 * second forms and the exhibitor's form (its euDefine is the booth) keep what they have.
 * @example takesDefine('form') // true
 */
export function takesDefine(kind: string): boolean {
  return kind === 'form' || kind === 'proving';
}

/**
 * A form page path with its label kept (`?define=` or `&define=`), so a refused post and the
 * lookup's way back return to the same labelled form; the path alone without one.
 * @example withDefine('/form/21308/MTMwOA/visitor', 'VIP') // '/form/21308/MTMwOA/visitor?define=VIP'
 */
export function withDefine(path: string, define: string | null): string {
  return define ? `${path}${path.includes('?') ? '&' : '?'}${DEFINE_PARAM}=${encodeURIComponent(define)}` : path;
}
