/**
 * Expo ids with behaviour of their own beyond their variant (spec §2.4, §2.5, §3, §4, §9), as
 * one table: a reader finds every special case of an expo in one row, and adding one is adding
 * a trait. The variants of spec §2.2 are src/lib/core/variants.ts; the home screens of
 * §2.4 src/lib/expo/home.ts.
 *
 * Checked without zod (the types name every trait; the load-time check below refuses a
 * repeated id): some of these rules run in the browser's islands, which must not ship a schema
 * library.
 */

/** What an expo id may do differently. */
export const EXPO_TRAITS = {
  /** incomplete registrations are completed on `/repairForm` (spec §2.3) */
  repair: 'spec §2.3',
  /** defaults to English when the visitor chose no language (spec §4 "listed English expos") */
  english: 'spec §4',
  /** defaults to Thai when the visitor chose no language (spec §3 constants "Thai 1179") */
  thai: 'spec §3',
  /** in spec §3's "all-expo list": signType 4 pages keep the visitor's language (config-apply.ts) */
  allExpoList: 'spec §3, §4',
  /** home and generic lookup go to `/auto{path}` (spec §2.3) */
  autoHome: 'spec §2.3',
  /** once ended, every page but a form goes to the form (spec §4) */
  endedGoesToForm: 'spec §4',
  /** once ended, the notice says the next edition opens soon (spec §4) */
  endedOpeningSoon: 'spec §4',
  /** no desktop banner (spec §2.5) */
  noDesktopBanner: 'spec §2.5',
  /** no technology-provider footer (spec §2.5) */
  noFooter: 'spec §2.5',
  /** banner and footer carousel every 3000 ms (spec §9) */
  fastBanner: 'spec §9',
  /** sells tickets (spec §9 "1216 (ticket case)") */
  tickets: 'spec §9',
} as const;
export type ExpoTrait = keyof typeof EXPO_TRAITS;

/** One expo's row. */
export interface ExpoRow {
  id: number;
  /** who the expo is, for a reader */
  name: string;
  traits: readonly ExpoTrait[];
}

/** The table as written, checked: positive whole ids, each once, at least one trait. */
function checked(rows: readonly ExpoRow[]): readonly ExpoRow[] {
  const seen = new Set<number>();
  for (const r of rows) {
    if (!Number.isInteger(r.id) || r.id <= 0 || seen.has(r.id) || r.traits.length === 0) {
      throw new Error(`src/lib/expo/expos.ts: expo ${r.id} is repeated, not a positive id, or has no trait`);
    }
    seen.add(r.id);
  }
  return rows;
}

/** The table (checked when the module loads: a bad row fails every test at once). */
export const EXPOS: readonly ExpoRow[] = checked([
  { id: 343, name: 'opening-soon expo', traits: ['endedOpeningSoon'] },
  { id: 380, name: 'auto expo', traits: ['autoHome'] },
  { id: 498, name: 'nuclear-expo landing', traits: ['noDesktopBanner'] },
  { id: 785, name: 'repair expo one', traits: ['repair'] },
  { id: 861, name: 'English expo', traits: ['english'] },
  { id: 976, name: 'Baigou', traits: ['english', 'allExpoList'] },
  { id: 996, name: 'English expo', traits: ['english'] },
  { id: 1042, name: 'expo whose end leads to the form', traits: ['endedGoesToForm'] },
  { id: 1074, name: 'repair expo two', traits: ['repair'] },
  { id: 1106, name: 'Thai', traits: ['english', 'allExpoList'] },
  { id: 1108, name: 'Indonesian', traits: ['english', 'allExpoList'] },
  { id: 1113, name: 'Vietnam', traits: ['english', 'allExpoList'] },
  { id: 1142, name: 'Thai/Vietnam/Indonesia image page', traits: ['allExpoList', 'noDesktopBanner', 'noFooter', 'fastBanner'] },
  { id: 1177, name: 'two-tab expo', traits: ['allExpoList'] },
  { id: 1178, name: 'Jakarta', traits: ['english', 'allExpoList'] },
  { id: 1179, name: 'Bangkok', traits: ['thai', 'allExpoList'] },
  { id: 1216, name: 'ticket expo', traits: ['tickets'] },
  { id: 1261, name: 'new Thai', traits: ['allExpoList'] },
  { id: 1262, name: 'new Indonesian', traits: ['allExpoList'] },
  { id: 1308, name: 'IEAE', traits: ['allExpoList'] },
  { id: 1312, name: 'Asia', traits: ['allExpoList'] },
  { id: 1313, name: 'Indonesia Asia', traits: ['allExpoList'] },
  { id: 1314, name: 'Vietnam Asia', traits: ['allExpoList'] },
  { id: 1316, name: 'Malaysia', traits: ['allExpoList'] },
  { id: 1317, name: 'new Vietnam', traits: ['allExpoList'] },
]);

/**
 * The ids of the expos with a trait.
 * @example exposWith('repair') // Set { 785, 1074 }
 */
export function exposWith(trait: ExpoTrait): ReadonlySet<number> {
  return new Set(EXPOS.filter((r) => r.traits.includes(trait)).map((r) => r.id));
}
