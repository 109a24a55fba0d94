/**
 * The haisi route family's rules (spec §2.3 names the routes, §7 the calls; the payloads are not
 * shown, our reading is docs/upstream.md "Haisi"): which language its routes force, and which
 * upstream call its lookup and its registration make. A table per decision, not a chain of ifs.
 * Pure: no Astro, React or Hono.
 */
import type { Lang } from '../core/languages';
import type { RouteMatch } from '../core/routes';
import { variantByName, type Variant } from '../core/variants';
import type { LookupCallName, RegisterCallName } from '../contract/haisi';

/** The calls of spec §7 the lookup and the form may make: the contract's names. */
export type { LookupCallName, RegisterCallName };

/**
 * The language a route forces (spec §2.3 `/haisi…` Chinese, `/haisi…En` English), or null when
 * the route leaves it to the config and the visitor.
 * @example routeLang(variantByName('haisiEn')) // 'en'
 */
export function routeLang(variant: Variant | null | undefined): Lang | null {
  return variant?.family?.lang ?? null;
}

/**
 * The language a page's route forces: its variant's, or for the shared selection list
 * (`/applyList/…?v=haisi`, spec §2.3) the variant the lookup named in `v`.
 * @example pageRouteLang(matchRoute('/applyList/22616/MjYxNg/visitor'), new URL('https://x/applyList/22616/MjYxNg/visitor?v=haisiEn')) // 'en'
 */
export function pageRouteLang(match: RouteMatch | null, url: URL): Lang | null {
  if (!match) return null;
  if (match.screen === 'applyList') return routeLang(variantByName(url.searchParams.get('v') ?? ''));
  return routeLang(match.variant);
}

/**
 * The lookup call of a page's variant: a family with Hai calls asks queryHaiPhone (both
 * contact kinds, our reading), every other page the contact's own lookup.
 * @example lookupCall(variantByName('haisi')) // 'queryHaiPhone'
 */
export function lookupCall(variant: Variant | null): LookupCallName {
  return variant?.family?.calls === 'hai' ? 'queryHaiPhone' : 'queryUserExpoId';
}

/**
 * The Hai registration calls by the family's language (our reading of spec §7): a new
 * registration from the Chinese form is addHaiUserInfo, from the English form
 * addHaiUserInfoNew; the answer "update" to a 20001 prompt (the proven contact's own
 * registration of this expo) is addHaiExpoUserNew in either language.
 */
const HAI_REGISTER: Readonly<Record<'new' | 'update', Partial<Record<Lang, RegisterCallName>> & { default: RegisterCallName }>> = {
  new: { zh: 'addHaiUserInfo', en: 'addHaiUserInfoNew', default: 'addHaiUserInfo' },
  update: { default: 'addHaiExpoUserNew' },
};

/**
 * The registration call of a form: addUserInfo for every page outside the family.
 * @example registerCall(variantByName('haisiEn'), false) // 'addHaiUserInfoNew'
 * @example registerCall(variantByName('haisi'), true) // 'addHaiExpoUserNew'
 */
export function registerCall(variant: Variant | null, update: boolean): RegisterCallName {
  const family = variant?.family;
  if (family?.calls !== 'hai') return 'addUserInfo';
  const row = HAI_REGISTER[update ? 'update' : 'new'];
  return row[family.lang] ?? row.default;
}
