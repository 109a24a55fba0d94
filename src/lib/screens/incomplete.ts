/**
 * A route of spec §2.3 reached by a link that lacks its parameters (an old link cut in a chat,
 * a bookmark of `/article`): a real page that names what is missing and links on, never a 404.
 * src/components/screens/IncompleteScreen.astro renders it. Pure.
 */
import type { IncompleteRoute, MissingPart } from '../core/routes';
import type { ScreenPage } from './page';
import { defineScreen } from './define';

export interface IncompleteData {
  kind: 'incomplete';
  route: IncompleteRoute;
  /** catalogue keys of what the link lacks (none: it is damaged in another way) */
  missing: ('pages.missingFId' | 'pages.missingEid' | 'pages.missingId')[];
  title: string;
  /** where to go on: the site's start page */
  homeHref: string;
}

const MISSING_KEY = { fId: 'pages.missingFId', eid: 'pages.missingEid', id: 'pages.missingId' } as const;

/** @example loadIncomplete(page, 'article', ['eid']).missing // ['pages.missingEid'] */
export function loadIncomplete(page: ScreenPage, route: IncompleteRoute, missing: readonly MissingPart[]): IncompleteData {
  return { kind: 'incomplete', route, missing: missing.map((m) => MISSING_KEY[m]), title: page.t('pages.incompleteTitle'), homeHref: '/' };
}

/** A route reached without its parameters (spec §2.3 "Others"): public, never a 404. */
export const incompleteScreen = defineScreen({
  name: 'incomplete',
  components: { incomplete: 'IncompleteScreen' },
  load: (m, page) => loadIncomplete(page, m.route, m.missing),
  personal: false,
  missingIsNotFound: false,
  prepare: {},
});
