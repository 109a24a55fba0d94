/**
 * The haisi family's calls (spec §7 `CustomerUserInfo queryHaiPhone, addHaiUserInfo,
 * addHaiUserInfoNew, addHaiExpoUserNew`, payloads not shown; our reading: docs/upstream.md
 * "Haisi"). Each answers only for an expo of the family (`hai_expos`, migration 0007), `404`
 * for any other, and otherwise is the call it reads like, with the same ownership rules:
 *
 * - `queryHaiPhone`: the lookup (lookup.ts) of the contact it carries: `phone` or `email`,
 *   exactly one of the two, the code checked for that contact;
 * - `addHaiUserInfo` (Chinese form) and `addHaiUserInfoNew` (English form): addUserInfo's new
 *   registration, the row tagged with the call that wrote it (`hai_call`); `update: true` in
 *   `data` is refused (`400`): updating is addHaiExpoUserNew's;
 * - `addHaiExpoUserNew`: addUserInfo's update of the proven contact's own registration of this
 *   expo (the answer "update" to a 20001 prompt); `data` must say `update: true`.
 */
import type { Context } from 'hono';
import { RefCode, reply } from '../envelope';
import type { RefEnv } from '../expo';
import { AddUserInfoBody, FormValues, decryptValues, parseInput } from '../inputs';
import { addUserInfo } from './addUserInfo';
import { lookup } from './lookup';

/** The registration calls of the family and whether each is an update. */
export const HAI_REGISTER_CALLS = {
  addHaiUserInfo: { update: false },
  addHaiUserInfoNew: { update: false },
  addHaiExpoUserNew: { update: true },
} as const;
export type HaiRegisterCall = keyof typeof HAI_REGISTER_CALLS;

/** Whether the call's expo is one of the haisi family (migration 0007 `hai_expos`). */
async function isHaisiExpo(c: Context<RefEnv>): Promise<boolean> {
  const row = await c.env.DB.prepare('SELECT 1 AS one FROM hai_expos WHERE expo_id = ?').bind(c.var.expo.id).first<{ one: number }>();
  return row !== null;
}

function notHaisi(c: Context<RefEnv>): Response {
  return reply(c, RefCode.NOT_FOUND, `expo ${c.var.expo.id} is not a haisi expo`);
}

const byPhone = lookup('phone');
const byEmail = lookup('email');

/** `GET /CustomerUserInfo/queryHaiPhone`: the family's lookup, by the one contact it carries. */
export async function queryHaiPhone(c: Context<RefEnv>): Promise<Response> {
  if (!(await isHaisiExpo(c))) return notHaisi(c);
  const phone = (c.req.query('phone') ?? '').trim();
  const email = (c.req.query('email') ?? '').trim();
  if ((phone === '') === (email === '')) return reply(c, RefCode.BAD_INPUT, 'bad input: exactly one of phone and email is required');
  return phone !== '' ? byPhone(c) : byEmail(c);
}

/** One of the family's registration calls. */
export function addHai(call: HaiRegisterCall) {
  const { update } = HAI_REGISTER_CALLS[call];
  return async function addHaiHandler(c: Context<RefEnv>): Promise<Response> {
    if (!(await isHaisiExpo(c))) return notHaisi(c);
    // What the call is for: a new registration, or the update of the contact's own one.
    const body = parseInput(AddUserInfoBody, (await c.req.raw.clone().json().catch(() => undefined)) as unknown);
    if (body.ok) {
      const values = await decryptValues(body.value.data, c.var.expo.aes_key, FormValues);
      if (values.ok && (values.value.update === true) !== update) {
        return reply(c, RefCode.BAD_INPUT, update ? 'bad input: addHaiExpoUserNew updates: data must say update: true' : `bad input: ${call} registers: an update is addHaiExpoUserNew`);
      }
      if (values.ok && (values.value.userId !== undefined || values.value.euCode !== undefined)) {
        return reply(c, RefCode.BAD_INPUT, 'bad input: the haisi family has no second or repair forms');
      }
    }
    // Anything else wrong with the request is addUserInfo's to answer, in its words.
    const res = await addUserInfo(c);
    if (!update) await tag(c, res, call);
    return res;
  };
}

/** Marks a row the family registered with the call that wrote it (the organiser sees which form). */
async function tag(c: Context<RefEnv>, res: Response, call: HaiRegisterCall): Promise<void> {
  const body = (await res.clone().json().catch(() => null)) as { code?: number; data?: { id?: number } } | null;
  const id = body?.code === RefCode.OK ? body.data?.id : undefined;
  if (typeof id !== 'number') return;
  await c.env.DB.prepare('UPDATE registrations SET hai_call = ? WHERE id = ? AND expo_id = ? AND hai_call IS NULL').bind(call, id, c.var.expo.id).run();
}
