/**
 * The credential page's data (spec §2.1, §2.5): the registration (read by the page pipeline
 * through the unknown-code cache and the per-address miss limit), its status (404 unknown, 429
 * limited), who may read the personal details (the contact whose own lookup found this code),
 * the health upload's owner, how long the service worker may keep the page
 * (src/lib/page/offline-copy.ts), the latest admission at a gate and the offline copy's "saved"
 * line (src/lib/expo/entry.ts). src/components/screens/CredentialScreen.astro renders it. Pure.
 */
import { shownLines } from '../bus/bus';
import type { Variant } from '../core/variants';
import { lastEntryText, savedTimes } from '../expo/entry';
import { admits, isAwaitingReview, isVoided } from '../expo/view';
import { ownCodes, provenFor, readsCredential } from '../lookup/contact-cookie';
import { OFFLINE_UNTIL_HEADER, offlineUntil } from '../page/offline-copy';
import { copyMetaHeader, OFFLINE_COPY_HEADER } from '../page/offline-list';
import { routePath, type SuccessParams } from '../core/routes';
import { personalShareUrl, shareUserId } from '../page/share';
import { needsPledge } from '../seat/pledge';
import { limitMessage } from '../security/limits';
import { marketOf } from '../tickets/money';
import type { Credential } from '../util/domain';
import { pageForm, type PageNotice } from './form-state';
import { available, type HealthItem, type ScreenPage, type ScreenPorts, type SiteBooking, type SiteDate, type SiteType } from './page';
import { visitInfo, type VisitInfo } from '../expo/visit';
import { defineScreen } from './define';

/** The registration as the pipeline read it (functions/credential-lookup.ts). */
export type CredentialRead =
  | { kind: 'found'; record: Credential }
  /** the upstream does not know the code (now, or less than a TTL ago) */
  | { kind: 'unknown' }
  /** this address has had too many misses; the upstream was not asked */
  | { kind: 'limited'; retryAfterS: number }
  /** the upstream could not be reached or answered nonsense (not a miss) */
  | { kind: 'failed' };

export interface CredentialData {
  kind: 'credential';
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
  /** the health upload (expos asking for the pledge) */
  health: boolean;
  /** the health upload's owner: the contact whose own lookup found this code, on a pledge expo */
  owner: boolean;
  voided: boolean;
  /** awaiting the organiser's review: the state and what comes next, nothing for the gate */
  awaiting: boolean;
  /** the QR code, its save link, the wallet passes and the offline copy (src/lib/expo/view.ts admits) */
  admits: boolean;
  /** the latest admission at a gate as a sentence ("Checked in 09:12 at Gate 3"), or null */
  lastEntry: string | null;
  /**
   * the offline copy's line, hidden until the service worker serves the copy: `today` (the time
   * alone) while the expo's day of this visit lasts, `later` (date and time) from `dayEnd` (ms) on
   */
  saved: { today: string; later: string; dayEnd: number };
  /** where a visitor proves the contact again (and where an old or wrong link leads) */
  lookup: string;
  back: string;
  /** the show's dates, hall, address and contact (src/lib/expo/visit.ts), when the config says any */
  visit: VisitInfo | null;
  /** site booking (spec §1, §7 `from/site`): the expo's slot types with their dates, and this registration's bookings */
  sites: { types: { type: SiteType; dates: SiteDate[] }[]; mine: SiteBooking[]; owner: boolean; notice: Omit<PageNotice, 'key'> | null };
  /** the shuttle bus page of this registration (spec §2.3 `/bus`), when the expo runs lines */
  bus: string | null;
  /**
   * The way back to the list this credential was picked from, while the proof lasts (the cookie's
   * list, no new code): its path and how many registrations it holds; null with one or none.
   */
  list: { href: string; n: number } | null;
  /**
   * "Share as me" (spec §1 personal share): the expo's visitor home with `defineName` (the
   * registration's name) and `shareUserId` (src/lib/page/share.ts), for the proven visitor only
   */
  personalShare: { url: string; name: string } | null;
  /** the owner's health uploads and the notice of a no-JS upload or delete */
  uploads: { items: HealthItem[]; notice: Omit<PageNotice, 'key'> | null };
}

/** Site booking: at most 20 types of 50 dates; none when the expo has no site types. */
async function sitesOf(ports: ScreenPorts, expoId: number, euCode: string): Promise<Pick<CredentialData['sites'], 'types' | 'mine'>> {
  const types = ((await available(ports.selectSiteTypeList({ expoId }))) ?? []).slice(0, 20);
  if (types.length === 0) return { types: [], mine: [] };
  const [lists, mine] = await Promise.all([
    Promise.all(types.map((type) => available(ports.selectSiteDateList({ expoId, typeId: type.id })))),
    available(ports.selectExpoUserSiteId({ expoId, euCode })),
  ]);
  return { types: types.map((type, i) => ({ type, dates: (lists[i] ?? []).slice(0, 50) })), mine: mine ?? [] };
}

/** The personal share link (spec §1), or null without a usable secret. */
async function personalShareOf(page: ScreenPage, params: SuccessParams, name: string, secret: string): Promise<CredentialData['personalShare']> {
  const id = await shareUserId(secret, params.expoId, params.euCode).catch(() => null);
  if (!id) return null;
  const home = new URL(routePath({ screen: 'home', params: { fId: params.fId, expoId: params.expoId, ty: 'visitor' } }), page.url.origin);
  return { url: personalShareUrl(home, name, id), name };
}

const noticeOnly = (n: PageNotice | null) => (n ? { tone: n.tone, message: n.message } : null);

/** @example (await loadCredential(page, ports, { params, variant: null }, { kind: 'unknown' })).status // 404 */
export async function loadCredential(
  page: ScreenPage,
  ports: ScreenPorts,
  input: { params: SuccessParams; variant: Variant | null },
  found: CredentialRead | null,
  secret = '',
): Promise<CredentialData> {
  const { params, variant } = input;
  const { t } = page;
  const record = found?.kind === 'found' ? found.record : null;
  const limited = found?.kind === 'limited' ? found : null;
  const headers: Record<string, string> = {};
  if (limited) headers['retry-after'] = String(limited.retryAfterS);
  const info = page.config?.expoInfo;
  // An offline copy only of a credential that admits (not void, not awaiting review): without
  // the header the service worker keeps none, and drops the one it had.
  if (record && admits(record)) {
    headers[OFFLINE_UNTIL_HEADER] = String(offlineUntil(info?.endTime, page.now));
    // what the copy is, for the shared link's offline list (src/lib/page/offline-list.ts)
    const offset = marketOf(params.expoId).utcOffsetMinutes;
    headers[OFFLINE_COPY_HEADER] = copyMetaHeader({ expo: params.expoId, kind: 'credential', codes: [params.euCode], offset, lang: page.lang });
  }
  const refusal = limited ? limitMessage('attempts', limited.retryAfterS * 1000) : null;
  const health = record !== null && needsPledge(page.config?.customerWx);
  // The contact whose own lookup found this code books sites; on pledge expos, uploads health papers.
  const codeOwner = ownCodes(provenFor(page.contact, params.expoId)).includes(params.euCode);
  const owner = health && codeOwner;
  const back = `${routePath({ screen: 'credential', variant, params })}${page.url.search}`;
  const [sites, uploads, lines] = await Promise.all([
    record ? sitesOf(ports, params.expoId, params.euCode) : { types: [], mine: [] },
    health && owner ? available(ports.listHealth({ expoId: params.expoId, euCode: params.euCode })) : null,
    // The bus link needs the registration's id (the link's euUserId).
    record?.id ? available(ports.selectBusList({ expoId: params.expoId })) : null,
  ]);
  const euUserId = record?.id ?? 0;
  const listed = provenFor(page.contact, params.expoId)?.list ?? [];
  const f = page.url.searchParams.get('f') ?? '';
  const listQuery = `?${variant ? `v=${encodeURIComponent(variant.name)}&` : ''}f=${encodeURIComponent(f)}`;
  const list =
    listed.length > 1 && listed.some((entry) => entry.e === params.euCode)
      ? { href: `${routePath({ screen: 'applyList', params: { fId: params.fId, expoId: params.expoId, ty: 'visitor' } })}${listQuery}`, n: listed.length }
      : null;
  const form = pageForm(page.flash, t);
  const reader = record !== null && readsCredential(page.contact, params);
  const offset = marketOf(params.expoId).utcOffsetMinutes;
  const entry = record ? lastEntryText(record.lastEntry, page.now, offset, page.lang) : null;
  const saved = savedTimes(page.now, offset, page.lang);
  const personalShare = reader && record.uname?.trim() ? await personalShareOf(page, params, record.uname.trim(), secret) : null;
  return {
    kind: 'credential',
    params,
    variant,
    record,
    status: limited ? 429 : record ? 200 : 404,
    headers,
    title: record ? t('success.title') : refusal ? t(refusal.key, refusal.vars) : t('error.noData'),
    refused: refusal !== null,
    name: page.view.name,
    reader,
    personalShare,
    health,
    owner,
    voided: record !== null && isVoided(record),
    awaiting: record !== null && !isVoided(record) && isAwaitingReview(record),
    admits: record !== null && admits(record),
    lastEntry: entry ? t(entry.key, entry.vars) : null,
    saved: {
      today: t('entry.saved', { time: saved.today }),
      later: t('entry.saved', { time: saved.later }),
      dayEnd: saved.dayEnd,
    },
    lookup: routePath({ screen: 'search', variant, params: { fId: params.fId, expoId: params.expoId, ty: 'visitor' } }),
    back,
    visit: visitInfo(info, page.lang),
    // A booking's notice on this exact page; an upload's for the owner.
    sites: { ...sites, owner: codeOwner, notice: page.flash?.path === back ? noticeOnly(form.notice) : null },
    uploads: { items: uploads ?? [], notice: owner ? noticeOnly(form.notice) : null },
    list,
    bus: euUserId > 0 && shownLines(lines ?? []).length > 0 ? routePath({ screen: 'bus', which: 'bus', params: { ...params, euUserId } }) : null,
  };
}

/** The credential (spec §2.1): personal; its registration read through the unknown-code cache, with its wallet links. */
export const credentialScreen = defineScreen({
  name: 'credential',
  components: { credential: 'CredentialScreen' },
  load: async (m, page, ports, deps) => loadCredential(page, ports, { params: m.params, variant: m.variant }, await deps.credential(), deps.secret),
  personal: true,
  missingIsNotFound: false,
  prepare: { credential: (m) => m.params, wallet: true },
});
