/**
 * The paths of docs/upstream.md "Site booking" (spec §1, §7 `from/site`), under the `/custom` base
 * like every call. Plain params and data (no AES). Kept apart from contract.ts's `Path` so the
 * site work merges without touching the shared table.
 */
export const SitePath = {
  selectSiteTypeList: '/from/site/selectSiteTypeList',
  selectSiteDateList: '/from/site/selectSiteDateList',
  addExpoUserSite: '/from/site/addExpoUserSite',
  selectExpoUserSiteId: '/from/site/selectExpoUserSiteId',
  deleteExpoUserSite: '/from/site/deleteExpoUserSite',
} as const;

/** The business refusals of `addExpoUserSite`. */
export const SiteCode = {
  /** the date has no place left */
  FULL: 20201,
  /** this registration already holds a booking of that type (cancel it first) */
  ALREADY_BOOKED: 20202,
} as const;
