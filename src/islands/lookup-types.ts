/**
 * The contract between the lookup page (server) and its form (src/components/lookup/LookupForm.astro,
 * three React islands: src/islands/LookupForm.tsx, SendCodeButton.tsx, SelectPopup.tsx).
 * The page renders the form with these props; with JavaScript off, that server render IS the
 * form (a real <form> that posts to the edge API), so every prop needed for a
 * no-JS round trip is here too.
 */
import type { ContactMode } from '../lib/core/variants';

/** The texts the form shows, already translated on the server (no i18n runtime in the client). */
export const LOOKUP_STRING_KEYS = [
  'search.modePhone',
  'search.modeEmail',
  'search.country',
  'search.countrySearch',
  'search.countryNone',
  'search.selectCountry',
  'search.phone',
  'search.phonePlach',
  'search.codeError',
  'search.email',
  'search.emailPlach',
  'search.emailError',
  'search.code',
  'search.codePlach',
  'search.codeDigits',
  'search.sendCode',
  'search.sending',
  'search.countdown',
  'search.reget',
  'search.sendSuccess',
  'search.submit',
  'search.nodata',
  'search.selectTitle',
  'app.close',
  'app.loading',
  'error.generic',
] as const;
export type LookupStringKey = (typeof LOOKUP_STRING_KEYS)[number];

/** The values the visitor typed (kept through every failure). */
export interface LookupValues {
  areaCode: string;
  phone: string;
  email: string;
  code: string;
}

export interface LookupFormProps {
  /** Hidden fields posted with the form (plain decimals for ids, DESIGN.md). */
  hidden: {
    expoId: string;
    urlId: string;
    ty: string;
    /** variant name ('' for the generic /search route) */
    variant: string;
    /** the list several matches go to: '' the usual, `lvYun` the lvYun list (spec §2.3 `/lvYunList`) */
    list: string;
    /** the lookup page's own `f` query, passed through to the credential route (spec §2.1) */
    f: string;
    /** the link's custom label (`?define=`, spec §7 getForm), passed on to the registration form */
    define: string;
    /** this page's path and query: where no-JS posts come back to */
    back: string;
    /** a purchase page of this expo to return to once verified (spec §4 guard; src/lib/tickets/paths.ts) */
    next: string;
  };
  /** Modes offered, in display order (spec §2.2). */
  modes: ContactMode[];
  /** Shown as tabs (1308) or as a switch link. */
  tabs: boolean;
  /** The mode the server rendered: 1 phone, 2 e-mail. */
  checkType: 1 | 2;
  /** True when the server chose checkType from an explicit request (?mode= or a failed post), so the form island must not override it from session storage. */
  checkTypeExplicit: boolean;
  /** No-JS mode switch: a link per mode to this page with `?mode=1|2`. */
  modeHrefs: { phone: string; email: string };
  /** E-mail mode needs no code: the send-code button and code field are hidden (customer site 10542, spec §2.2). */
  emailWithoutCode: boolean;
  values: LookupValues;
  /** A field error from the server (validation), already translated; the field gets focus. */
  error: { field: 'areaCode' | 'phone' | 'email' | 'code'; message: string } | null;
  /** A notice from the server, already translated (e.g. "A code was sent to …", or search.nodata). */
  notice: { tone: 'info' | 'error'; message: string } | null;
  /** spec §8: a toast to show once hydrated (a missing url config: search.otherError; its text is in toastStrings). */
  toast: 'search.otherError' | null;
  /** Seconds until the send-code button may be used again (the server knows when the last code was sent). */
  resendIn: number;
  /** Session-storage key the e-mail is kept under (spec §2.2: 'phone' for 1108). */
  emailSessionKey: 'phone' | 'email';
  /** The page language, for country names (Chinese on zh and tw pages, English on en, CLDR names on the others). */
  lang: string;
  /**
   * The country/region list, packed (`code|name|en` lines, the name in the page's language:
   * src/lib/form/countries.ts packCountries);
   * '' on pages without the phone mode. A prop rather than bundled data: it keeps about 5 KB
   * gzip out of the form's JavaScript, and pages without the phone mode carry none of it.
   */
  countries: string;
  strings: Record<LookupStringKey, string>;
  /**
   * The toast texts (spec §8): the lookup form island hosts the page's one toast itself
   * (src/islands/ToastHost.tsx as a component), so a lookup page needs no ToastHost island of its own.
   */
  toastStrings: Record<string, string>;
}

/** The JSON the edge API answers to the form's script: the actions' own envelopes (src/lib/actions/lookup.ts). */
export type { LookupOutcome, LookupReply, SelectRow, SendCodeReply } from '../lib/actions/lookup';

/** One lookup form per page, so fixed ids (the same in the server render and after hydration). */
export const FIELD_ID: Readonly<Record<'areaCode' | 'phone' | 'email' | 'code', string>> = {
  areaCode: 'lookup-areaCode',
  phone: 'lookup-phone',
  email: 'lookup-email',
  code: 'lookup-code',
};
export const errorId = (field: keyof typeof FIELD_ID): string => `${FIELD_ID[field]}-error`;
/** The hidden fields posted with the form, in the server's order. */
export const HIDDEN_NAMES = ['expoId', 'urlId', 'ty', 'variant', 'list', 'f', 'define', 'back', 'next'] as const;

/** The texts the send-code button shows: its labels, the success toast, the contact's validation messages. */
export const SEND_CODE_STRING_KEYS = [
  'search.sendCode',
  'search.sending',
  'search.countdown',
  'search.reget',
  'search.sendSuccess',
  'search.selectCountry',
  'search.phonePlach',
  'search.codeError',
  'search.emailPlach',
  'search.emailError',
  'search.codePlach',
  'search.codeDigits',
] as const satisfies readonly LookupStringKey[];

/** The send-code button island's props (src/islands/SendCodeButton.tsx). */
export interface SendCodeButtonProps {
  /** the hidden fields the send-code post carries */
  hidden: { expoId: string; urlId: string; ty: string; variant: string };
  lang: string;
  /** seconds left of the countdown when the server rendered the page */
  resendIn: number;
  strings: Record<(typeof SEND_CODE_STRING_KEYS)[number], string>;
}

/** The selection popup island's props (src/islands/SelectPopup.tsx). */
export interface SelectPopupProps {
  title: string;
  closeLabel: string;
}
