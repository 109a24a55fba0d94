/**
 * The gate's screens (README "The gate"), for staff with a valid key of the expo: without one
 * (the pipeline's `staff` is null) there is no data, and the page is the site's not-found page.
 *
 * - `scan` (`/gate/{eid}`): the gate's name, today's expo-local date, the last answer (carried by
 *   the no-JS round trip's flash, src/lib/actions/gate.ts), whether the organiser's API lacks the
 *   check-in calls (on load: a one-row probe of the admission list) and the manual form.
 * - `stats` (`/gate/{eid}/stats`): admitted and refused per gate and hour (checkInStats).
 * - `csv` is answered by the Worker (functions/gate.ts) before any page: never a screen.
 */
import { readAnswer } from '../gate/answer';
import type { GateStaff } from '../gate/keys';
import { expoToday, statsTable, type StatsTable } from '../gate/report';
import type { GateAnswer } from '../gate/types';
import type { GateScreen } from '../core/routes';
import type { ScreenPage } from './page';
import type { Upstream } from '../contract';
import { UNSUPPORTED_CODE } from '../actions/gate';
import { expoName } from '../expo/view';
import type { Lang } from '../core/languages';
import { defineScreen } from './define';

/** The upstream calls the gate screens read (a refusal code of 404 is "no such call"). */
export type GateStatsPort = Pick<Upstream, 'checkInStats'> &
  /**
   * checkInList: one row of the admission list, the scan screen's probe of whether the organiser's
   * API has the check-in calls, so the page says so on load, not after the first scan (issue 23
   * review). getCustomerId: the config of the customer url the staff key names, whose `expoInfo`
   * names the show in the gate's header (issue 30), in the page's language.
   */
  Partial<Pick<Upstream, 'checkInList' | 'getCustomerId'>>;

export interface GateScanData {
  kind: 'gate';
  expoId: number;
  eid: string;
  gate: string;
  /** the show's name (the organiser's, in the page's language), or null when the key names no customer url or its config did not load */
  show: string | null;
  /** expo-local "YYYY-MM-DD" */
  today: string;
  /** the last scan's answer (no-JS round trip), or null */
  answer: GateAnswer | null;
  /** the organiser's API lacks the check-in call */
  unsupported: boolean;
  /** a message for staff: the catalogue key or the upstream's text */
  error: { key: string | null; text: string | null } | null;
  /** the code typed last, kept after a refusal of the form */
  typed: string;
}

export interface GateStatsData {
  kind: 'gateStats';
  expoId: number;
  eid: string;
  gate: string;
  show: string | null;
  today: string;
  /** null when the upstream did not answer */
  table: StatsTable | null;
  unsupported: boolean;
}

/** The data of a gate screen, or null (no staff key: not found; the CSV is never a screen). */
export async function loadGate(
  which: GateScreen,
  route: { expoId: number; eid: string },
  page: Pick<ScreenPage, 'flash' | 'now'> & { lang?: Lang },
  ports: GateStatsPort,
  staff: GateStaff | null,
): Promise<GateScanData | GateStatsData | null> {
  if (!staff || staff.expoId !== route.expoId || which === 'csv') return null;
  const base = { expoId: route.expoId, eid: route.eid, gate: staff.gate, today: expoToday(route.expoId, page.now), show: await showName(route.expoId, staff, ports, page.lang ?? 'zh') };
  if (which === 'stats') {
    const r = await ports.checkInStats({ expoId: route.expoId }).catch(() => ({ ok: false as const, code: 0 }));
    return { kind: 'gateStats', ...base, table: r.ok ? statsTable(r.data) : null, unsupported: !r.ok && r.code === 404 };
  }
  const notice = page.flash?.notice ?? null;
  const answer = readAnswer(page.flash?.data);
  // The organiser's API lacks the check-in calls: the last scan said so, or (no scan answered) a
  // one-row read of the admission list answers "no such call"; a failure of another kind says nothing.
  const said = notice?.key === 'gate.unsupported';
  const probe = said || answer ? null : await ports.checkInList?.({ expoId: route.expoId, page: 1, pageSize: 1 }).catch(() => null);
  const unsupported = said || (probe?.ok === false && probe.code === UNSUPPORTED_CODE);
  const fieldError = page.flash?.error ?? null;
  const error = fieldError
    ? { key: fieldError.key, text: fieldError.text }
    : notice && notice.tone === 'error' && !unsupported
      ? { key: notice.key, text: notice.text }
      : null;
  return { kind: 'gate', ...base, answer, unsupported, error, typed: answer ? '' : (page.flash?.values['code'] ?? '') };
}

/**
 * The show's name for the gate's header: the organiser's `exhiName` / `exhiNameEn` (src/lib/expo/view.ts,
 * by the page's language) of the customer url the staff key names; null without one, or when its
 * config does not load (the header then names the expo by its id).
 */
async function showName(expoId: number, staff: GateStaff, ports: GateStatsPort, lang: Lang): Promise<string | null> {
  if (!staff.urlsId || !ports.getCustomerId) return null;
  const r = await ports.getCustomerId({ expoId, fId: staff.urlsId }).catch(() => null);
  return r?.ok ? expoName(r.data.expoInfo, lang) : null;
}

/**
 * The gate (README "The gate"): staff's, never stored or indexed; without a valid staff key of its
 * expo a path that does not exist; the scanner's live camera and the screen kept on while it runs.
 */
export const gateScreen = defineScreen({
  name: 'gate',
  components: { gate: 'GateScreen', gateStats: 'GateStatsScreen' },
  load: (m, page, _ports, deps) => loadGate(m.which, m, page, deps.gateStats ?? { checkInStats: async () => ({ ok: false, kind: 'refused', code: 0, msg: null }) }, deps.gateStaff ?? null),
  personal: true,
  allow: (data) => (data.kind === 'gate' ? ['camera', 'screen-wake-lock'] : []),
  missingIsNotFound: true,
  prepare: { gateStaff: (m) => m.expoId },
});
