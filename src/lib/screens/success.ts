/**
 * The credential page's data (spec §2.1, §2.5): the registration (read by the page pipeline
 * through the unknown-code cache and the per-address miss limit), its status (404 unknown, 429
 * limited), who may read the personal details (the contact whose own lookup found this code),
 * the health upload's owner and how long the service worker may keep the page
 * (src/lib/page/offline-copy.ts). src/components/screens/SuccessScreen.astro renders it. Pure.
 */
import type { Variant } from '../expo/variants';
import { isVoided } from '../expo/view';
import { ownCodes, provenFor, readsCredential } from '../lookup/contact-cookie';
import { OFFLINE_UNTIL_HEADER, offlineUntil } from '../page/offline-copy';
import { routePath, type SuccessParams } from '../page/routes';
import { needsPledge } from '../seat/pledge';
import { limitMessage } from '../security/limits';
import type { Credential } from '../util/domain';
import type { ScreenPage } from './page';

/** The registration as the pipeline read it (functions/credential-lookup.ts). */
export type CredentialRead =
  | { kind: 'found'; record: Credential }
  | { kind: 'unknown' }
  | { kind: 'limited'; retryAfterS: number }
  | { kind: 'failed' };

export interface SuccessData {
  kind: 'success';
  params: SuccessParams;
  variant: Variant | null;
  record: Credential | null;
  status: 200 | 404 | 429;
  headers: Record<string, string>;
  title: string;
  /** the refusal of a limited address (its own text, no 'not found' under it) */
  refused: boolean;
  name: string | null;
  /** the personal details and the wallet passes */
  reader: boolean;
  /** the health upload (expos asking for the pledge), for the owner of this credential */
  health: boolean;
  owner: boolean;
  voided: boolean;
  /** where a visitor proves the contact again (and where an old or wrong link leads) */
  lookup: string;
  back: string;
  address: string | null;
  endTime: string | null;
}

/** @example loadSuccess(page, { params, variant: null }, { kind: 'unknown' }).status // 404 */
export function loadSuccess(
  page: ScreenPage,
  input: { params: SuccessParams; variant: Variant | null },
  found: CredentialRead | null,
): SuccessData {
  const { params, variant } = input;
  const { t } = page;
  const record = found?.kind === 'found' ? found.record : null;
  const limited = found?.kind === 'limited' ? found : null;
  const headers: Record<string, string> = {};
  if (limited) headers['retry-after'] = String(limited.retryAfterS);
  const info = page.config?.expoInfo;
  if (record) headers[OFFLINE_UNTIL_HEADER] = String(offlineUntil(info?.endTime, page.now));
  const refusal = limited ? limitMessage('lookup', limited.retryAfterS * 1000) : null;
  const health = record !== null && needsPledge(page.config?.customerWx);
  return {
    kind: 'success',
    params,
    variant,
    record,
    status: limited ? 429 : record ? 200 : 404,
    headers,
    title: record ? t('success.title') : refusal ? t(refusal.key, refusal.vars) : t('error.noData'),
    refused: refusal !== null,
    name: page.view.name,
    reader: record !== null && readsCredential(page.contact, params),
    health,
    owner: ownCodes(health ? provenFor(page.contact, params.expoId) : null).includes(params.euCode),
    voided: record !== null && isVoided(record),
    lookup: routePath({ screen: 'search', variant, params: { fId: params.fId, expoId: params.expoId, ty: 'visitor' } }),
    back: `${routePath({ screen: 'success', variant, params })}${page.url.search}`,
    address: info?.address ?? null,
    endTime: info?.endTime ?? null,
  };
}
