/**
 * The lookup screen's title (spec §2.1, §2.2): an exhibitor title for a variant's listed
 * customer url ids, otherwise the visitor title (or 'Buyer Register'). Returns catalogue keys.
 * The registration form of the same event and url carries the same title (one
 * wording for the visitor on both pages), and the organiser's `formTitle` (spec §4) is the
 * document title only on pages in the language it is written in.
 */
import type { Lang } from '../core/languages';
import type { Variant } from '../core/variants';

/** Catalogue keys of the lookup titles. */
export const TitleKey = {
  visitor: 'search.visitorTitle',
  buyer: 'search.buyerTitle',
  exhibitor: 'search.exhibitorTitle',
  exhibitorManual: 'search.exhibitorManual',
  exhibitorRegistration: 'search.exhibitorRegistration',
  visitorRegistration: 'search.visitorRegistration',
} as const;
export type TitleKey = (typeof TitleKey)[keyof typeof TitleKey];

/** What the title depends on. */
export interface TitleInput {
  /** null for the generic screens */
  variant: Variant | null;
  /** the customer url id (`fId`); null when unknown */
  urlId: number | null;
  /** the visitor type from the route (`exhibitor`, `admin`, anything else a visitor) */
  ty?: string | null | undefined;
}

/** One rule: when it applies, and the key it gives. */
interface TitleRule {
  /** where the rule comes from */
  readonly source: string;
  readonly applies: (i: TitleInput) => boolean;
  readonly key: TitleKey;
}

const isExpo = (i: TitleInput, expoId: number) => i.variant?.expoId === expoId;

/** First match wins: the specific screens of §2.2 before the common rule of §2.1. */
export const TITLE_RULES: readonly TitleRule[] = [
  {
    source: '§2.2: 1108, url id 8811 is Exhibitor Registration',
    applies: (i) => isExpo(i, 1108) && i.urlId === 8811,
    key: TitleKey.exhibitorRegistration,
  },
  {
    source: '§2.2: 1108, otherwise Visitor Registration',
    applies: (i) => isExpo(i, 1108),
    key: TitleKey.visitorRegistration,
  },
  {
    source: "§2.2: 'Exhibitor manual' for customer site 10542 (expo 1308)",
    applies: (i) => isExpo(i, 1308) && i.urlId === 10542,
    key: TitleKey.exhibitorManual,
  },
  {
    source: '§2.1: an exhibitor title for the listed url ids',
    applies: (i) => i.urlId !== null && (i.variant?.exhibitorUrlIds.includes(i.urlId) ?? false),
    key: TitleKey.exhibitor,
  },
  {
    // The generic screens list no url ids; their exhibitors arrive with the route's visitor
    // type `exhibitor` (spec §4, DESIGN.md "URL parameters").
    source: '§2.1, §4: generic screens, visitor type exhibitor',
    applies: (i) => i.variant === null && i.ty?.trim() === 'exhibitor',
    key: TitleKey.exhibitor,
  },
  {
    source: "§2.2: 'Buyer Register' for visitors (1261, 1308)",
    applies: (i) => i.variant?.rules.buyerTitle ?? false,
    key: TitleKey.buyer,
  },
  {
    source: '§2.1: otherwise the visitor title',
    applies: () => true,
    key: TitleKey.visitor,
  },
];

/**
 * The catalogue key of the lookup screen's title.
 * @example lookupTitleKey({ variant: variantByExpoId(1316), urlId: 10920 }) // 'search.exhibitorTitle'
 * @example lookupTitleKey({ variant: variantByExpoId(1261), urlId: 5 }) // 'search.buyerTitle'
 */
export function lookupTitleKey(input: TitleInput): TitleKey {
  return TITLE_RULES.find((r) => r.applies(input))?.key ?? TitleKey.visitor;
}

/** What the organiser's title rule reads: `formTitle` and the config's language (spec §3, §4). */
export interface OrganiserTitleConfig {
  formTitle?: string | null;
  languageType?: number | null;
}

/**
 * The language an organiser wrote `formTitle` in: spec §4 reads `languageType` 1 (or none) as
 * Chinese and any other value as English (the signType 4 rule); the config holds one title.
 */
export function organiserTitleLang(wx: OrganiserTitleConfig): Lang {
  return wx.languageType == null || wx.languageType === 1 ? 'zh' : 'en';
}

/**
 * The organiser's document title (spec §4 "Document title from formTitle") for a page in
 * `lang`, or null when there is none or it is written in another language: the page's own
 * title in its language then (no English title on a Thai page, no simplified title
 * on a traditional one).
 * @example organiserTitle({ formTitle: 'Asia Expo', languageType: 2 }, 'en') // 'Asia Expo'
 * @example organiserTitle({ formTitle: 'Asia Expo', languageType: 2 }, 'thai') // null
 */
export function organiserTitle(wx: OrganiserTitleConfig | null, lang: Lang): string | null {
  const title = wx?.formTitle?.trim() ?? '';
  return title !== '' && wx && organiserTitleLang(wx) === lang ? title : null;
}
