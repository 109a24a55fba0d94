/**
 * The haisi family's calls (spec §7 names them, `CustomerUserInfo addHaiUserInfo,
 * addHaiUserInfoNew, addHaiExpoUserNew, queryHaiPhone`, payloads not shown; our reading is
 * docs/upstream.md "Haisi"). Every path is relative to `{UPSTREAM_URL}/custom`.
 *
 * - `GET queryHaiPhone`: the family's lookup, for both contact kinds: the request and reply of
 *   queryUserExpoId (`expoId`, `email`, `phone`, `captcha`, each an encrypted param; encrypted
 *   data, an array of registration records: lookup.ts `Registration`), matched on the proven owner.
 * - `POST addHaiUserInfo` (the Chinese form), `addHaiUserInfoNew` (the English form) and
 *   `addHaiExpoUserNew` (the answer "update" to a 20001 prompt): the request and reply of
 *   addUserInfo (`{ expoId, urlsId, data }` → `{ euCode, id }`, 20001 with `{ id }`),
 *   `checkType` and the proven contact in `data` as "Who owns a registration" says.
 */
import { under } from './wire';

export const HaisiPath = {
  ...under('/CustomerUserInfo', 'queryHaiPhone addHaiUserInfo addHaiUserInfoNew addHaiExpoUserNew'),
};

/** Which lookup a site runs (src/lib/expo/haisi.ts picks it by variant): the contact's own, or the family's. */
export type LookupCallName = 'queryUserExpoId' | 'queryHaiPhone';

/** Which registration call a site posts to (src/lib/expo/haisi.ts picks it by variant and language). */
export type RegisterCallName = 'addUserInfo' | 'addHaiUserInfo' | 'addHaiUserInfoNew' | 'addHaiExpoUserNew';
