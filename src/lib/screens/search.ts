/**
 * The contact lookup screen's data (spec §2.1, §2.2 and the generic lookup): its modes, what is
 * typed in again (the flash of a failed post, else the contact a code was last sent to on this
 * expo, from its cookie, never from the URL), the one notice, the title and the share tags.
 * src/components/screens/SearchScreen.astro renders it; the lookup form's strings
 * (src/components/lookup/LookupForm.astro and its script) are the screen's. Pure.
 */
import { packCountries } from '../form/countries';
import { pickerOrder, withLocalNames } from '../form/country-names';
import { COUNTRIES } from '../form/country-list';
import { DEFINE_PARAM, defineParam } from '../form/define';
import type { Variant } from '../core/variants';
import { BYPASS_PROVE_COOKIE, bypassFor, lookupModes, usesBypass } from '../lookup/page';
import { decodeSentTo, resendWaitS, SENT_COOKIE, SENT_TO_COOKIE } from '../lookup/resend';
import type { Flavour, PathParams } from '../core/routes';
import { shareMeta, type ShareMeta } from '../page/share';
import { lookupTitleKey } from '../page/titles';
import { marketOf } from '../tickets/money';
import { errorOf, pageForm, type PageNotice } from './form-state';
import { selfPath, type ScreenPage } from './page';
import { defineScreen } from './define';

const LOOKUP_FIELDS = ['areaCode', 'phone', 'email', 'code'] as const;
type LookupField = (typeof LOOKUP_FIELDS)[number];

export interface SearchInput {
  params: PathParams;
  variant: Variant | null;
  /** the lvYun lookup (spec §2.3 `/lvYunSearch`): several matches go to `/lvYunList` */
  flavour?: Flavour | null;
  /** share tags (spec §1); default: from the config (src/lib/page/share.ts) */
  share?: ShareMeta | null;
  /** the hero image; default the config's. A home passes null: its banner carousel shows the images */
  image?: string | null;
}

export interface SearchData {
  kind: 'search';
  params: PathParams;
  variant: Variant | null;
  back: string;
  pledge: boolean;
  name: string | null;
  title: string;
  pageTitle: string;
  image: string | null;
  share: ShareMeta;
  challenge: { siteKey: string; scriptUrl: string } | null;
  /** the lookup form's settings (LookupForm.astro and its islands, src/islands/LookupForm.tsx) but its strings */
  form: {
    hidden: Record<'expoId' | 'urlId' | 'ty' | 'variant' | 'list' | 'f' | 'define' | 'back' | 'next', string>;
    modes: ReturnType<typeof lookupModes>['modes'];
    tabs: boolean;
    checkType: 1 | 2;
    checkTypeExplicit: boolean;
    modeHrefs: { phone: string; email: string };
    emailWithoutCode: boolean;
    values: Record<LookupField, string>;
    error: { field: LookupField; message: string } | null;
    notice: Omit<PageNotice, 'key'> | null;
    /** spec §8: a toast the island shows once hydrated (a missing url config); the notice stays for no-JS */
    toast: 'search.otherError' | null;
    resendIn: number;
    emailSessionKey: Variant['rules']['emailSessionKey'];
    lang: ScreenPage['lang'];
    countries: string;
  };
}

/** @example (await loadSearch(page, { params, variant: null })).form.modes // ['email', 'phone'] */
export function loadSearch(page: ScreenPage, input: SearchInput): SearchData {
  const { params, variant } = input;
  const { url, t } = page;
  const pledge = page.pledge;
  const form = pageForm(pledge ? null : page.flash, t);
  const flashed = !pledge && page.flash !== null;
  const sentTo = pledge || flashed ? null : decodeSentTo(page.cookie(SENT_TO_COOKIE), params.expoId);
  const values: Record<string, string> = flashed
    ? form.values
    : sentTo
      ? { checkType: String(sentTo.checkType), areaCode: sentTo.areaCode, phone: sentTo.phone, email: sentTo.email }
      : {};
  const state = lookupModes({
    variant,
    queryMethod: page.config?.customerWx?.queryMethod ?? null,
    requested: url.searchParams.get('mode'),
    flashed: values['checkType'] ?? null,
  });
  const modeHref = (ct: 1 | 2) => {
    const u = new URL(url);
    u.searchParams.set('mode', String(ct));
    return selfPath(u);
  };
  const title = t(lookupTitleKey({ variant, urlId: params.fId, ty: params.ty }));
  const name = page.view.name;
  const errorField = LOOKUP_FIELDS.find((f) => f === page.flash?.error?.field);
  const errorMessage = errorField ? errorOf(form, errorField) : null;
  // spec §8: a missing url config is search.otherError; the lookup itself still works.
  const notice = form.notice
    ? { tone: form.notice.tone, message: form.notice.message }
    : page.configFailed
      ? { tone: 'error' as const, message: t('search.otherError') }
      : null;
  // spec §4: the organiser's formTitle replaces this title (the layout applies it; the share card too).
  const pageTitle = page.view.formTitle ?? (name ? `${title} · ${name}` : title);
  const back = selfPath(url);
  return {
    kind: 'search',
    params,
    variant,
    back,
    pledge,
    name,
    title,
    pageTitle,
    image: input.image === undefined ? page.view.image : input.image,
    share:
      input.share ??
      shareMeta({
        config: page.config?.customerWx ?? null,
        pageUrl: url,
        fallback: { title: pageTitle, description: name ?? title, image: page.view.image },
        invites: t('share.invites'),
      }),
    challenge: pledge ? null : page.challenge,
    form: {
      hidden: {
        expoId: String(params.expoId),
        urlId: String(params.fId),
        ty: params.ty,
        variant: variant?.name ?? '',
        list: input.flavour ?? '',
        f: url.searchParams.get('f') ?? '',
        // spec §7 getForm: a labelled link's label goes on to the form (which asks the organiser)
        define: defineParam(url.searchParams.get(DEFINE_PARAM)) ?? '',
        back,
        next: (url.searchParams.get('next') ?? '').slice(0, 300),
      },
      modes: state.modes,
      tabs: state.tabs,
      checkType: state.checkType,
      checkTypeExplicit: state.explicit,
      modeHrefs: { phone: modeHref(1), email: modeHref(2) },
      emailWithoutCode: usesBypass(variant, params.expoId, params.fId, 2, bypassFor(page.bypass, page.cookie(BYPASS_PROVE_COOKIE), params.expoId)),
      values: { areaCode: values['areaCode'] ?? '', phone: values['phone'] ?? '', email: values['email'] ?? '', code: values['code'] ?? '' },
      error: errorField && errorMessage !== null ? { field: errorField, message: errorMessage } : null,
      notice,
      toast: page.configFailed ? 'search.otherError' : null,
      resendIn: resendWaitS(page.cookie(SENT_COOKIE), page.now),
      emailSessionKey: variant?.rules.emailSessionKey ?? 'email',
      lang: page.lang,
      countries: state.modes.includes('phone') ? packCountries(pickerOrder(withLocalNames(COUNTRIES, page.lang), marketOf(params.expoId).currency), page.lang) : '',
    },
  };
}

/** The lookup (spec §2.2): public, but a page that may type in the contact a code was sent to is not stored. */
export const searchScreen = defineScreen({
  name: 'search',
  components: { search: 'SearchScreen' },
  load: (m, page) => loadSearch(page, { params: m.params, variant: m.variant, flavour: m.flavour ?? null }),
  personal: false,
  flashCookies: [SENT_TO_COOKIE],
  missingIsNotFound: false,
  prepare: { shareCard: true, challenge: true, pledgeTicket: true },
});
