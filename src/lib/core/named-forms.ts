/**
 * The per-event forms of spec §2.3 that are named by their own route (`/jjcz2024`, `/ocean`,
 * `/formCic`, `/reForm`, `/twoForm`, `/userInfo`, `/subyexhi`), as one table: a route, what kind
 * of form it is and its heading. Every one has the form route shape of spec §2.1
 * (`/{Form}/{fId}/{eid}/{ty}`) and renders through the one registration form (its definition is
 * the customer url's own, as the upstream serves it). Adding a named form is adding a row.
 *
 * The kinds beyond the generic ones (src/lib/form/page.ts FormKind):
 * - correct: re-registration / correction, the visitor's own registration pre-filled and updated;
 * - details: the visitor's own details, each registration with a link to correct it;
 * - exhibitor: an exhibitor's registration, sent to `exhiCustomerUser/addExhiUserInfor` (class 2).
 */

/** What a named form does (a subset of FormKind, kept here so the table needs no import). */
export type NamedFormKind = 'form' | 'correct' | 'secondForm' | 'details' | 'exhibitor';

export interface NamedForm {
  /** the route's first segment, spelled as the spec spells it */
  route: string;
  kind: NamedFormKind;
  /** catalogue key of the page's heading (namespace forms2) */
  titleKey: string;
  /** a short English description, for people reading the table */
  description: string;
}

/** The named forms of spec §2.3, in the spec's order; `/subyexhi` (§2.3 "Others", §7) last. */
export const NAMED_FORMS: readonly NamedForm[] = [
  // §2.5: the desktop banner is hidden on this route name (src/lib/expo/shell.ts).
  { route: 'jjcz2024', kind: 'form', titleKey: 'forms2.jjcz2024Title', description: "an event's own 2024 registration form" },
  { route: 'ocean', kind: 'form', titleKey: 'forms2.oceanTitle', description: 'the ocean expo registration form' },
  { route: 'formCic', kind: 'form', titleKey: 'forms2.cicTitle', description: 'the CIC conference and industry form (company fields)' },
  { route: 'reForm', kind: 'correct', titleKey: 'forms2.reFormTitle', description: "re-registration: the visitor's own registration, pre-filled and updated" },
  { route: 'twoForm', kind: 'secondForm', titleKey: 'forms2.twoFormTitle', description: 'the second form of code 20003 on the generic screens' },
  { route: 'userInfo', kind: 'details', titleKey: 'forms2.userInfoTitle', description: "the visitor's own details, editable through reForm" },
  { route: 'subyexhi', kind: 'exhibitor', titleKey: 'forms2.exhibitorTitle', description: 'an exhibitor registration (company, booth, contact person)' },
];

const BY_ROUTE: ReadonlyMap<string, NamedForm> = new Map(NAMED_FORMS.map((f) => [f.route, f]));

/**
 * The named form of a route, or null.
 * @example namedForm('ocean')?.kind // 'form'
 */
export function namedForm(route: string): NamedForm | null {
  return BY_ROUTE.get(route) ?? null;
}

/** The route of the generic second form (code 20003 on a screen without a variant's own). */
export const GENERIC_SECOND_FORM = 'twoForm';

/** The named form that corrects a registration (the details page links to it). */
export const CORRECT_FORM = 'reForm';
