/**
 * The event variants of spec §2.2 (plus Baigou, expo 976, from §2.3/§2.4) as ONE table of data
 * (DESIGN.md "Variants are data"). Adding an event is adding a row. The table is validated by
 * a zod schema once, when this module loads: a bad row fails the Worker at start-up, not a
 * visitor's request.
 */
import { z } from 'zod';
import { LANGS, type Lang } from './languages';

/** Contact modes of the lookup screen (spec §2.1: check type 1 = phone, 2 = e-mail). */
export const CONTACT_MODES = ['phone', 'email'] as const;
export type ContactMode = (typeof CONTACT_MODES)[number];

/** A route name as it appears as the first path segment (`IndonesianSearch`). */
const RouteName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9]*$/, 'a route name is letters and digits, starting with a letter');

const UrlId = z.number().int().positive();

/** One row of the variants table. Every field is documented here, where it is checked. */
export const VariantSchema = z
  .object({
    /** Route prefix, spelled as the spec spells it (`Maylaysia` sic, `vietnamNew`). */
    name: RouteName,
    /**
     * The numeric expo id that selects this variant (spec §1, §2.2); null for a route family
     * that serves any expo named by the link's `eid` (the haisi family of spec §2.3).
     */
    expoId: z.number().int().positive().nullable(),
    /** A short English description, for people reading the table and logs. */
    description: z.string().min(1),
    modes: z
      .object({
        /** Which contact modes the lookup screen offers, in display order (spec §2.2 "Modes"). */
        offered: z.array(z.enum(CONTACT_MODES)).min(1),
        /** Whether the modes are shown as tabs (1308: "e-mail and phone tabs"). */
        tabs: z.boolean(),
        /** False where the spec says "phone not collected" (1317, 1113): the form asks no phone. */
        phoneCollected: z.boolean(),
      })
      .strict(),
    /** Check type used when session storage holds none: 2 = e-mail (spec §2.1, §9) unless only phone is offered. */
    defaultCheckType: z.union([z.literal(1), z.literal(2)]),
    /** Customer url ids that get the exhibitor title (spec §2.1, §2.2 "Exhibitor title url id"). */
    exhibitorUrlIds: z.array(UrlId),
    /** Route names of the lookup, form and credential screens (spec §2.2, §2.3). */
    search: RouteName,
    form: RouteName,
    success: RouteName,
    /** Further form routes of the variant (Jakarta supplement and second form; Bangkok second forms). */
    extraForms: z.array(RouteName),
    /** The event's local language, the landing dropdown's third entry (spec §1); null when it has none. */
    localLang: z.enum(LANGS).nullable(),
    /**
     * A route family (spec §2.3 `/haisi…`, our reading: docs/upstream.md "Haisi"): its home route
     * (the lookup screen, as a generic Chinese home of signType 1), the page language its routes
     * force, and the calls it makes (`hai`: queryHaiPhone and the addHai… registrations). Null
     * for the expo variants of spec §2.2.
     */
    family: z
      .object({ home: RouteName, lang: z.enum(LANGS), calls: z.literal('hai') })
      .strict()
      .nullable(),
    rules: z
      .object({
        /** 1308: several matches list only the earliest-created record plus every class 3 record (spec §2.2). */
        earliestPlusClass3: z.boolean(),
        /** Jakarta: one match without an activityId goes to this route instead of the success page (spec §2.2). */
        supplementWhenNoActivity: RouteName.nullable(),
        /** Jakarta, Bangkok: upstream code 20003 leads to this second form (spec §2.2, §4). */
        secondFormOn20003: RouteName.nullable(),
        /** The session-storage key the e-mail is kept under: `phone` for 1108 (spec §2.2 last bullet). */
        emailSessionKey: z.enum(['phone', 'email']),
        /** Customer url ids whose e-mail path hides the send-code button; the edge supplies the bypass code (spec §2.2, DESIGN.md). */
        bypassUrlIds: z.array(UrlId),
        /** Visitors see 'Buyer Register' instead of the visitor title (spec §2.2). */
        buyerTitle: z.boolean(),
      })
      .strict(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: 'custom', message: `${v.name}: ${message}` });
    if (new Set(v.modes.offered).size !== v.modes.offered.length) issue('a mode is offered twice');
    const onlyPhone = v.modes.offered.length === 1 && v.modes.offered[0] === 'phone';
    if (v.defaultCheckType !== (onlyPhone ? 1 : 2))
      issue('defaultCheckType is 2 (e-mail) unless only phone is offered (spec §2.1)');
    if (v.modes.tabs && v.modes.offered.length < 2) issue('tabs need two modes');
    for (const r of [v.rules.supplementWhenNoActivity, v.rules.secondFormOn20003]) {
      if (r !== null && !v.extraForms.includes(r)) issue(`rule route ${r} is not one of its extraForms`);
    }
    if ((v.expoId === null) !== (v.family !== null)) issue('a route family (and only a family) serves any expo: expoId null');
    for (const id of v.rules.bypassUrlIds) {
      if (!v.modes.offered.includes('email')) issue(`bypass url id ${id} needs the e-mail mode`);
    }
  });
export type Variant = z.infer<typeof VariantSchema>;

/** The whole table: rows valid one by one, and no expo id, name or route name used twice. */
export const VariantTableSchema = z.array(VariantSchema).superRefine((rows, ctx) => {
  const seen = (label: string, values: readonly (string | number)[]) => {
    const set = new Set<string | number>();
    for (const v of values) {
      if (set.has(v)) ctx.addIssue({ code: 'custom', message: `${label} ${v} appears twice` });
      set.add(v);
    }
  };
  seen(
    'expo id',
    rows.flatMap((r) => (r.expoId === null ? [] : [r.expoId])),
  );
  seen(
    'name',
    rows.map((r) => r.name),
  );
  // Route names are case-sensitive in the router, but two that differ only in case would be a trap.
  seen(
    'route',
    rows.flatMap((r) => [r.search, r.form, r.success, ...r.extraForms, ...(r.family ? [r.family.home] : [])].map((n) => n.toLowerCase())),
  );
});

type Row = z.input<typeof VariantSchema>;

const NO_RULES: Row['rules'] = {
  earliestPlusClass3: false,
  supplementWhenNoActivity: null,
  secondFormOn20003: null,
  emailSessionKey: 'email',
  bypassUrlIds: [],
  buyerTitle: false,
};
const PHONE_AND_EMAIL: Row['modes'] = { offered: ['phone', 'email'], tabs: false, phoneCollected: true };
const EMAIL_ONLY: Row['modes'] = { offered: ['email'], tabs: false, phoneCollected: true };
const EMAIL_NO_PHONE: Row['modes'] = { offered: ['email'], tabs: false, phoneCollected: false };

/** A row whose routes follow the `{name}Search|Form|Success` pattern of spec §2.2. */
function row(
  name: string,
  expoId: number,
  description: string,
  modes: Row['modes'],
  exhibitorUrlIds: number[],
  localLang: Lang | null,
  more: { extraForms?: string[]; rules?: Partial<Row['rules']> } = {},
): Row {
  return {
    name,
    expoId,
    description,
    modes,
    defaultCheckType: 2,
    exhibitorUrlIds,
    search: `${name}Search`,
    form: `${name}Form`,
    success: `${name}Success`,
    extraForms: more.extraForms ?? [],
    localLang,
    family: null,
    rules: { ...NO_RULES, ...more.rules },
  };
}

/**
 * A row of the haisi route family (spec §2.3: `/haisi`, `/haisiSearch`, `/haisiForm`,
 * `/haisiSuccess`, each also with the suffix `En`): one Chinese and one English event variant
 * over any expo, in the language its routes force. The suffix comes last (`haisiSearchEn`).
 */
function family(name: string, suffix: '' | 'En', lang: Lang, description: string): Row {
  return {
    name: `${name}${suffix}`,
    expoId: null,
    description,
    modes: PHONE_AND_EMAIL,
    defaultCheckType: 2,
    exhibitorUrlIds: [],
    search: `${name}Search${suffix}`,
    form: `${name}Form${suffix}`,
    success: `${name}Success${suffix}`,
    extraForms: [],
    localLang: null,
    family: { home: `${name}${suffix}`, lang, calls: 'hai' },
    rules: NO_RULES,
  };
}

/** Spec §2.2's table, row by row, in the spec's order; Baigou (976, §2.3/§2.4) last. */
const ROWS: Row[] = [
  row('Indonesian', 1108, 'Indonesian event', EMAIL_ONLY, [8811], 'id', {
    // §2.2 last bullet: this screen keeps the e-mail under the session key `phone`.
    rules: { emailSessionKey: 'phone' },
  }),
  row('ThaiNew', 1261, 'New Thai event', PHONE_AND_EMAIL, [], 'thai', {
    // §2.2: "show 'Buyer Register' for visitors".
    rules: { buyerTitle: true },
  }),
  row('Maylaysia', 1316, 'Malaysia event', PHONE_AND_EMAIL, [10920], 'ms'),
  row('Asia', 1312, 'Asia event', PHONE_AND_EMAIL, [10887], null),
  row('InAsia', 1313, 'Indonesia Asia event', EMAIL_ONLY, [10891], 'id'),
  row('Jakarta', 1178, 'Jakarta event', PHONE_AND_EMAIL, [], 'id', {
    extraForms: ['JakartaSupplement', 'JakartaSecondForm'],
    rules: { supplementWhenNoActivity: 'JakartaSupplement', secondFormOn20003: 'JakartaSecondForm' },
  }),
  row('IEAE', 1308, 'IEAE event', { offered: ['email', 'phone'], tabs: true, phoneCollected: true }, [10542], null, {
    // §2.2: the one screen with the 10542 exhibitor variant shares 1261's titles ('Buyer Register'
    // for visitors, 'Exhibitor manual' for 10542) and 10542's e-mail path needs no sent code.
    rules: { earliestPlusClass3: true, bypassUrlIds: [10542], buyerTitle: true },
  }),
  row('VnAsia', 1314, 'Vietnam Asia event', EMAIL_ONLY, [10895], 'vn'),
  row('IndonesianNew', 1262, 'New Indonesian event', EMAIL_ONLY, [10918], 'id'),
  row('Thai', 1106, 'Thai event', PHONE_AND_EMAIL, [8730], 'thai'),
  row('Bangkok', 1179, 'Bangkok event', PHONE_AND_EMAIL, [8730], 'thai', {
    extraForms: ['BangkokSecondForm', 'SupplyBangkokForm'],
    rules: { secondFormOn20003: 'BangkokSecondForm' },
  }),
  row('vietnamNew', 1317, 'New Vietnam event', EMAIL_NO_PHONE, [10916], 'vn'),
  row('vietnam', 1113, 'Vietnam event', EMAIL_NO_PHONE, [8831], 'vn'),
  row('baigou', 976, 'Baigou event', PHONE_AND_EMAIL, [], null),
  // spec §2.3's haisi routes, a family over the existing screens (our reading: docs/upstream.md "Haisi").
  family('haisi', '', 'zh', 'Haisi event family, Chinese'),
  family('haisi', 'En', 'en', 'Haisi event family, English'),
];

/** Freezes a parsed value all the way down: the table is shared by every request. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Every variant, validated at module load (throws a ZodError naming the bad row otherwise). */
export const ALL_VARIANTS: readonly Variant[] = deepFreeze(VariantTableSchema.parse(ROWS));

/** Which screen of a variant a route name names. */
export type RouteKind = 'search' | 'form' | 'success' | 'extra' | 'home';
export interface VariantRoute {
  variant: Variant;
  kind: RouteKind;
}

const byExpoId = new Map(ALL_VARIANTS.flatMap((v) => (v.expoId === null ? [] : [[v.expoId, v] as const])));
const byName = new Map(ALL_VARIANTS.map((v) => [v.name, v]));
const byRoute = new Map<string, VariantRoute>(
  ALL_VARIANTS.flatMap((variant) => [
    [variant.search, { variant, kind: 'search' }],
    [variant.form, { variant, kind: 'form' }],
    [variant.success, { variant, kind: 'success' }],
    ...variant.extraForms.map((r): [string, VariantRoute] => [r, { variant, kind: 'extra' }]),
    ...(variant.family ? [[variant.family.home, { variant, kind: 'home' }] as [string, VariantRoute]] : []),
  ]),
);

/** Every route name the variants own (the first path segments of src/lib/core/routes.ts they answer). */
export const VARIANT_ROUTE_NAMES: readonly string[] = [...byRoute.keys()];

/**
 * The variant of an expo, or null for the generic screens.
 * @example variantByExpoId(1308)?.name // 'IEAE'
 */
export function variantByExpoId(expoId: number | null | undefined): Variant | null {
  return expoId == null ? null : (byExpoId.get(expoId) ?? null);
}

/**
 * The variant with this route prefix (case-sensitive, as the spec spells it), or null.
 * @example variantByName('Maylaysia')?.expoId // 1316
 */
export function variantByName(name: string): Variant | null {
  return byName.get(name) ?? null;
}

/**
 * Resolves a route's first path segment; null for an unknown name, so the route answers 404.
 * @example variantByRoute('JakartaSupplement') // { variant: <Jakarta>, kind: 'extra' }
 */
export function variantByRoute(routeName: string): VariantRoute | null {
  return byRoute.get(routeName) ?? null;
}
