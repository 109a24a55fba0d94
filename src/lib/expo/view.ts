/**
 * What pages show of an expo's config (spec §3, §4 "config application"): its name in the
 * visitor's language, the image to show, and the credential's usage lines. Organiser config
 * is data, never markup or script: only http(s) and same-site image addresses are used.
 */
import type { Lang } from '../core/languages';

interface ExpoInfoLike {
  exhiName?: string | null;
  exhiNameEn?: string | null;
  showLogo?: string | null;
}

/** The expo's name: the Chinese name for zh and tw, else the English one, each falling back to the other. */
export function expoName(info: ExpoInfoLike | null, lang: Lang): string | null {
  const zh = info?.exhiName?.trim() || null;
  const en = info?.exhiNameEn?.trim() || null;
  return lang === 'zh' || lang === 'tw' ? (zh ?? en) : (en ?? zh);
}

/** An image address organisers may give: https/http, or a path on this site. Anything else is dropped. */
export function safeImageUrl(url: string | null | undefined): string | null {
  const u = url?.trim();
  if (!u) return null;
  if (/^https?:\/\/[^\s"'<>]+$/i.test(u)) return u;
  if (/^\/(?!\/)[^\s"'<>]*$/.test(u)) return u;
  return null;
}

/**
 * The page image of spec §4: pcBackground, else headImgUrl, else showLogo, else none.
 * Config lists may be comma-separated: the first entry counts.
 */
export function pageImage(
  wx: { pcBackground?: string | null; headImgUrl?: string | null } | null,
  info: ExpoInfoLike | null,
): string | null {
  for (const candidate of [wx?.pcBackground, wx?.headImgUrl, info?.showLogo]) {
    const first = candidate?.split(',')[0];
    const safe = safeImageUrl(first);
    if (safe) return safe;
  }
  return null;
}

/** A credential's usage as the success page lists it (spec §2.5 success page labels). */
export interface UsageLine {
  /** catalogue key of the label */
  label: 'success.useStatus' | 'success.usedCount' | 'success.maxCount';
  /** a catalogue key (used / not used / unlimited) or a number */
  value: { key: 'success.used' | 'success.unused' | 'success.voided' | 'success.unlimited' } | { count: number };
}

/**
 * `useStatus` 2: the credential is void (item 10: its ticket's order has a refund
 * applied for; the reference sets it in the refund's own transaction). Beyond docs/upstream.md's
 * 0 unused and 1 used (README "Beyond docs/upstream.md").
 */
export const USE_STATUS_VOID = 2;

/** Whether a credential is void: the page shows no QR code, no wallet and no save link for it. */
export function isVoided(c: { useStatus?: number | null }): boolean {
  return c.useStatus === USE_STATUS_VOID;
}

/** `auditStatus` 1: the organiser has not approved the registration yet (docs/upstream.md: 0 approved, 1 awaiting review). */
export const AUDIT_STATUS_AWAITING = 1;

/** Whether a registration still awaits the organiser's review (spec §2.5 "awaiting review"). */
export function isAwaitingReview(c: { auditStatus?: number | null }): boolean {
  return c.auditStatus === AUDIT_STATUS_AWAITING;
}

/**
 * Whether a credential admits its holder, so that anything meant for the gate may be handed out
 * (the QR code and its image, the save link, wallet passes, an offline copy): neither void nor
 * awaiting review. Until the organiser approves, the page shows the state and what comes next.
 * @example admits({ useStatus: 0, auditStatus: 1 }) // false
 */
export function admits(c: { useStatus?: number | null; auditStatus?: number | null }): boolean {
  return !isVoided(c) && !isAwaitingReview(c);
}

/** The usage lines: status, used count, maximum (0 or missing = unlimited; docs/upstream.md). */
export function usageLines(c: { useStatus?: number | null; usedCount?: number | null; maxCount?: number | null }): UsageLine[] {
  const used = (c.useStatus ?? 0) === 1 || (c.usedCount ?? 0) > 0;
  const max = c.maxCount ?? 0;
  const status = isVoided(c) ? 'success.voided' : used ? 'success.used' : 'success.unused';
  return [
    { label: 'success.useStatus', value: { key: status } },
    { label: 'success.usedCount', value: { count: Math.max(0, c.usedCount ?? 0) } },
    { label: 'success.maxCount', value: max > 0 ? { count: max } : { key: 'success.unlimited' } },
  ];
}
