/**
 * The home screen of `/{fId}/{eid}/{ty}` by expo id (spec §2.4), as ONE table of data: a row
 * names the expo id, an optional customerWx id condition, and the screen. Expos without a row
 * get the generic page chosen by the config's signType. Pure: no Astro, React or Hono.
 */
import { routePath, type PathIds } from '../core/routes';
import { variantByName, type Variant } from '../core/variants';
import { exposWith } from './expos';

/** What a home page shows. */
export type HomeScreen =
  /** the variant's lookup screen, rendered at the home URL (spec §2.4 variant homes) */
  | { kind: 'variant'; variant: Variant }
  /** 1142: the Thai/Vietnam/Indonesia image page */
  | { kind: 'imagePage' }
  /** 498: nuclear-expo landing (camera, register and permit buttons, online expo link) */
  | { kind: 'nuclear' }
  /** 1128 and the seat-lookup variants: the seat lookup itself (the seat screen at the home URL) */
  | { kind: 'seat' }
  /** 1177 and signType 3: two tabs (mainland; Hong Kong, Macau, Taiwan and overseas) */
  | { kind: 'twoTabs' }
  /** signType 1 or empty: the Chinese lookup; signType 2: the English lookup */
  | { kind: 'lookup'; lang: 'zh' | 'en' }
  /** signType 4: register and query buttons */
  | { kind: 'buttons' };

export type HomeKind = HomeScreen['kind'];

/** One row of spec §2.4's list. */
export interface HomeRow {
  expoId: number;
  /** the row applies only with this customerWx id (1308 → 5959, 1235 → 5413) */
  wxId?: number;
  /** the row does not apply with these customerWx ids (1177 except 5013 and 5127) */
  exceptWxIds?: readonly number[];
  screen: HomeScreen;
}

/** A variant home: the variant of the variants table with that route name (spec §2.2 table). */
function variantHome(name: string): HomeScreen {
  const variant = variantByName(name);
  if (!variant) throw new Error(`home table: no variant named ${name} in src/lib/core/variants.ts`);
  return { kind: 'variant', variant };
}

/** Spec §2.4, in the spec's order. */
export const HOME_TABLE: readonly HomeRow[] = [
  { expoId: 976, screen: variantHome('baigou') },
  { expoId: 1106, screen: variantHome('Thai') },
  { expoId: 1261, screen: variantHome('ThaiNew') },
  { expoId: 1312, screen: variantHome('Asia') },
  { expoId: 1313, screen: variantHome('InAsia') },
  { expoId: 1314, screen: variantHome('VnAsia') },
  { expoId: 1316, screen: variantHome('Maylaysia') },
  { expoId: 1317, screen: variantHome('vietnamNew') },
  { expoId: 1308, wxId: 5959, screen: variantHome('IEAE') },
  { expoId: 1262, screen: variantHome('IndonesianNew') },
  { expoId: 1108, screen: variantHome('Indonesian') },
  { expoId: 1113, screen: variantHome('vietnam') },
  { expoId: 1142, screen: { kind: 'imagePage' } },
  { expoId: 498, screen: { kind: 'nuclear' } },
  { expoId: 1128, screen: { kind: 'seat' } },
  // "1193, 1197, 1218, 1384, 1385, 1235 with customerWx id 5413": we read the condition as
  // belonging to 1235 only, the last id before it (the seed gives 1235 config 5413).
  { expoId: 1193, screen: { kind: 'seat' } },
  { expoId: 1197, screen: { kind: 'seat' } },
  { expoId: 1218, screen: { kind: 'seat' } },
  { expoId: 1384, screen: { kind: 'seat' } },
  { expoId: 1385, screen: { kind: 'seat' } },
  { expoId: 1235, wxId: 5413, screen: { kind: 'seat' } },
  { expoId: 1178, screen: variantHome('Jakarta') },
  { expoId: 1179, screen: variantHome('Bangkok') },
  { expoId: 1177, exceptWxIds: [5013, 5127], screen: { kind: 'twoTabs' } },
];

/** The generic page by signType (spec §2.4 "Otherwise"): 1 or empty, 2, 3, 4. */
const BY_SIGN_TYPE: Readonly<Record<number, HomeScreen>> = {
  1: { kind: 'lookup', lang: 'zh' },
  2: { kind: 'lookup', lang: 'en' },
  3: { kind: 'twoTabs' },
  4: { kind: 'buttons' },
};
const GENERIC_DEFAULT: HomeScreen = { kind: 'lookup', lang: 'zh' };

function rowApplies(row: HomeRow, expoId: number, wxId: number | null): boolean {
  if (row.expoId !== expoId) return false;
  if (row.wxId !== undefined && row.wxId !== wxId) return false;
  if (row.exceptWxIds && wxId !== null && row.exceptWxIds.includes(wxId)) return false;
  return true;
}

/**
 * The home screen of an expo (spec §2.4). `wxId` is customerWx.id, `signType` customerWx.signType
 * (null when the config could not be loaded: the generic Chinese lookup).
 * @example homeScreenFor({ expoId: 1177, wxId: 5013, signType: 2 }) // { kind: 'lookup', lang: 'en' }
 */
export function homeScreenFor(input: { expoId: number; wxId: number | null; signType: number | null }): HomeScreen {
  const row = HOME_TABLE.find((r) => rowApplies(r, input.expoId, input.wxId));
  if (row) return row.screen;
  return (input.signType !== null ? BY_SIGN_TYPE[input.signType] : undefined) ?? GENERIC_DEFAULT;
}

/**
 * Expos that sell tickets (spec §9 "1216 (ticket case)"). The ticket lookup link of spec §2.4
 * shows on their buttons page; the upstream's ticket list (selectUrlsTicketList) is not a
 * call of the upstream client yet, so `hasTickets` may be unknown (null): then this list decides.
 */
export const TICKET_EXPO_IDS: ReadonlySet<number> = exposWith('tickets');

/** Whether the buttons page shows the ticket lookup (spec §2.4): a known non-empty list, else the ticket expos. */
export function showTicketLookup(expoId: number, hasTickets: boolean | null): boolean {
  return hasTickets ?? TICKET_EXPO_IDS.has(expoId);
}

/** The links of a generic home (spec §2.3 routes, §2.4 buttons). `basePath` is `/{fId}/{eid}/{ty}`. */
export interface HomeLinks {
  /** `/form{base}`, or `/proving{base}` when an activity is set (spec §2.4) */
  register: string;
  /** the lookup: the variant's search route, else `/search{base}` */
  query: string;
  ticket: string;
  /** the seat lookup of the seat-lookup expos */
  seat: string;
}

/**
 * The home links of a home page (built by src/lib/core/routes.ts routePath, like every link).
 * @example homeLinks({ fId: 21216, expoId: 1216, ty: 'visitor' }, { activity: false, variant: null }).register // '/form/21216/MTIxNg/visitor'
 */
export function homeLinks(ids: PathIds, opts: { activity: boolean; variant: Variant | null }): HomeLinks {
  const base = routePath({ screen: 'home', params: ids });
  return {
    register: routePath({ screen: 'form', route: opts.activity ? 'proving' : 'form', params: ids }),
    query: routePath({ screen: 'search', variant: opts.variant, params: ids }),
    ticket: `/ticket${base}`,
    seat: routePath({ screen: 'seat', params: ids }),
  };
}

/**
 * Button colours from config (buttonTextColor/buttonBackgroundColor) are NOT applied: the
 * pages' CSP (astro.config.mjs) allows no inline style attribute, and a per-request `<style>`
 * would need a per-request hash. The page keeps the product's own button colours; organisers
 * change them with the button images (registerButtonImage) instead.
 */
export const CUSTOM_BUTTON_COLOURS = false;

/**
 * The Asia fashion-show landing (spec §2.4 "a fixed-id Asia fashion-show landing"): the spec
 * gives no id; we serve it at `/AsiaFashionShow` for the Asia expo 1312 (the Asia variant of
 * §2.2) and its visitor and exhibitor urls of the seed (21312, 10887).
 */
export const FASHION_SHOW = {
  route: 'AsiaFashionShow',
  expoId: 1312,
  visitorUrlId: 21312,
  exhibitorUrlId: 10887,
  /** four social links (https only) */
  social: [
    { name: 'Facebook', href: 'https://www.facebook.com/' },
    { name: 'Instagram', href: 'https://www.instagram.com/' },
    { name: 'LinkedIn', href: 'https://www.linkedin.com/' },
    { name: 'YouTube', href: 'https://www.youtube.com/' },
  ],
} as const;
