/**
 * Ids of the parts of a long page that a form post answers in: the post comes back scrolled to
 * its part (`303 back#id`, the action's `anchor`), so the result is where the visitor is, not
 * above the fold of the credential page.
 */
export const ANCHORS = {
  /** the credential page's site booking (spec §1) */
  site: 'site',
  /** the credential page's health upload (spec §2.5) */
  health: 'health',
} as const;
