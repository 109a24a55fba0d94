/**
 * One call of an action from an island that branches on the outcome itself (the seat and
 * pledge islands; `submit()` in ./call.ts acts on the common outcomes for the others), read as the outcome the action decided
 * (src/lib/actions/outcome.ts), so islands branch on a kind instead of on codes:
 *
 * - `navigate`: code 200 with `data.location`: go there;
 * - `data`: code 200 with any other data (or none): the island shows it;
 * - `invalid`: a refusal naming its `data.field`: the message goes under that field;
 * - `notice`: any other refusal (the upstream's, a limit's code 600, …): the message for the page;
 * - `fault`: no answer of ours (offline, a server error): the spec §8 toast is already shown.
 */
import { postJson } from './call';

export type Submitted<D> =
  | { kind: 'navigate'; location: string }
  | { kind: 'data'; data: D | null; message: string | null }
  | { kind: 'invalid'; field: string; message: string }
  | { kind: 'notice'; code: number; message: string }
  | { kind: 'fault' };

/**
 * Posts `body` as JSON to the action at `url` and reads its answer.
 * @example const r = await ask<SeatData>('/api/seat/detail', fields); if (r.kind === 'navigate') location.assign(r.location);
 */
export async function ask<D>(url: string, body: unknown): Promise<Submitted<D>> {
  const r = await postJson<D>(url, body);
  if (!r) return { kind: 'fault' };
  const data = r.data as Record<string, unknown> | null;
  if (r.code === 200) {
    return typeof data?.['location'] === 'string' ? { kind: 'navigate', location: data['location'] } : { kind: 'data', data: r.data, message: r.msg };
  }
  const message = r.msg ?? '';
  return typeof data?.['field'] === 'string' ? { kind: 'invalid', field: data['field'], message } : { kind: 'notice', code: r.code, message };
}
