/**
 * The list of found registrations without JavaScript (spec §2.3 `/applyList`): the rows the
 * lookup found for the verified contact (signed cookie) of this expo, each linking to its
 * credential; 404 when there are none. src/components/screens/ApplyListScreen.astro renders it. Pure.
 */
import { variantByName, type Variant } from '../expo/variants';
import type { VerifiedContact } from '../lookup/contact-cookie';
import { routePath, type PathParams } from '../page/routes';
import type { ScreenPage } from './page';

export interface ApplyListData {
  kind: 'applyList';
  params: PathParams;
  variant: Variant | null;
  f: string;
  rows: NonNullable<VerifiedContact['list']>;
  status: 200 | 404;
  searchHref: string;
  name: string | null;
  title: string;
}

/** @example loadApplyList(page, params).status // 404 without a verified contact of this expo */
export function loadApplyList(page: ScreenPage, params: PathParams): ApplyListData {
  const variant = variantByName(page.url.searchParams.get('v') ?? '');
  const vc = page.contact;
  const rows = vc && vc.expoId === params.expoId ? (vc.list ?? []) : [];
  const name = page.view.name;
  return {
    kind: 'applyList',
    params,
    variant,
    f: page.url.searchParams.get('f') ?? '',
    rows,
    status: rows.length === 0 ? 404 : 200,
    searchHref: routePath({ screen: 'search', variant, params }),
    name,
    title: name ? `${page.t('apply.title')} · ${name}` : page.t('apply.title'),
  };
}
