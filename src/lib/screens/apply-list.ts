/**
 * The list of found registrations without JavaScript (spec §2.3 `/applyList`): the rows the
 * lookup found for the verified contact (signed cookie) of this expo, each linking to its
 * credential; 404 when there are none. src/components/screens/ApplyListScreen.astro renders it. Pure.
 *
 * Its lvYun flavour (spec §2.3 `/lvYunList`, {@link loadLvYunList}) is the same list with each
 * registration's state (used, not used, awaiting review, void), read from the credential call;
 * it answers 200 without a proof too: a standing "my registrations" page that says how to see them.
 */
import { variantByName, type Variant } from '../core/variants';
import type { ListEntry, VerifiedContact } from '../lookup/contact-cookie';
import { routePath, type Flavour, type PathParams } from '../core/routes';
import type { Credential } from '../util/domain';
import type { ScreenPage, ScreenPorts } from './page';
import { defineScreen } from './define';

/** A registration's state on the lvYun list (spec §3 success labels). */
export type RowState = 'void' | 'review' | 'used' | 'unused';

export interface ApplyListData {
  kind: 'applyList';
  params: PathParams;
  variant: Variant | null;
  flavour: Flavour | null;
  f: string;
  rows: NonNullable<VerifiedContact['list']>;
  /** the lvYun list: each row's state by registration code (absent: unknown) */
  states: Readonly<Record<string, RowState>>;
  status: 200 | 404;
  searchHref: string;
  name: string | null;
  title: string;
}

/** @example loadApplyList(page, params).status // 404 without a verified contact of this expo */
export function loadApplyList(page: ScreenPage, params: PathParams, flavour: Flavour | null = null): ApplyListData {
  const variant = flavour ? null : variantByName(page.url.searchParams.get('v') ?? '');
  const vc = page.contact;
  const rows = vc && vc.expoId === params.expoId ? (vc.list ?? []) : [];
  const name = page.view.name;
  return {
    kind: 'applyList',
    params,
    variant,
    flavour,
    f: page.url.searchParams.get('f') ?? '',
    rows,
    states: {},
    status: rows.length === 0 && !flavour ? 404 : 200,
    searchHref: routePath({ screen: 'search', variant, params, ...(flavour ? { flavour } : {}) }),
    name,
    title: name ? `${page.t('apply.title')} · ${name}` : page.t('apply.title'),
  };
}

/** Most rows whose state the lvYun list reads (one credential call each, at once). */
export const MAX_STATE_READS = 20;

/**
 * A credential's state: void (refund applied for) before awaiting review before used.
 * @example rowState({ useStatus: 1, auditStatus: 0 }) // 'used'
 */
export function rowState(c: Pick<Credential, 'useStatus' | 'auditStatus'>): RowState {
  if (c.useStatus === 2) return 'void';
  if (c.auditStatus === 1) return 'review';
  return c.useStatus === 1 ? 'used' : 'unused';
}

/**
 * The lvYun list (spec §2.3 `/lvYunList`): the verified contact's registrations on this expo (the
 * list its lookup found, or the codes of a single match), each with its state.
 */
export async function loadLvYunList(page: ScreenPage, ports: ScreenPorts, params: PathParams): Promise<ApplyListData> {
  const data = loadApplyList(page, params, 'lvYun');
  const vc = page.contact;
  const mine = vc && vc.expoId === params.expoId ? vc : null;
  // one match: the cookie holds its code, not a list; its name and class come from the credential
  const codes: ListEntry[] = data.rows.length > 0 ? data.rows : (mine?.codes ?? []).map((e) => ({ e, n: '', c: null, d: null, t: null }));
  const reads = await Promise.all(
    codes.slice(0, MAX_STATE_READS).map(async (row) => {
      try {
        const r = await ports.queryCustomerCode({ expoId: params.expoId, euCode: row.e });
        return r.ok ? r.data : null;
      } catch {
        return null;
      }
    }),
  );
  const states: Record<string, RowState> = {};
  const rows = codes.map((row, i) => {
    const c = reads[i];
    if (!c) return row;
    states[row.e] = rowState(c);
    return row.n !== '' ? row : { ...row, n: c.uname ?? '', c: c.euClass, d: c.euDefine, t: c.ticketName };
  });
  return { ...data, rows, states };
}

/** The selection list (spec §2.2 several matches; the lvYun list shows each registration's state): personal. */
export const applyListScreen = defineScreen({
  name: 'applyList',
  components: { applyList: 'ApplyListScreen' },
  load: (m, page, ports) => (m.flavour ? loadLvYunList(page, ports, m.params) : loadApplyList(page, m.params)),
  personal: true,
  missingIsNotFound: false,
  prepare: {},
});
