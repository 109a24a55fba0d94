/**
 * A route family's home, lookup or form reached without its `/{fId}/{eid}/{ty}` (spec §2.3: the
 * haisi routes answer a legacy link without parameters): not "page not found", but a short page
 * in the family's language saying the link is incomplete, with a way on (the site root). The
 * link names no expo, so there is no lookup to show. Pure.
 */
import type { Variant } from '../expo/variants';
import type { ScreenPage } from './page';

export interface IncompleteData {
  kind: 'incomplete';
  variant: Variant;
  /** the route as linked (`haisiSearch`) */
  route: string;
  title: string;
  text: string;
  home: string;
}

/** @example loadIncomplete(page, variantByName('haisi')!, 'haisi').title // '链接不完整' (zh) */
export function loadIncomplete(page: ScreenPage, variant: Variant, route: string): IncompleteData {
  const { t } = page;
  return { kind: 'incomplete', variant, route, title: t('haisi.incompleteTitle'), text: t('haisi.incompleteText'), home: t('haisi.incompleteHome') };
}
