/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The page's language: the `_h5_lang` cookie's, unless the expo's config forces one (src/middleware.ts). */
    lang: import('./lib/core/languages').Lang;
    /** Translation function for `lang`. */
    t: import('./i18n').Translate;
    /** What the page loader (src/middleware.ts) loaded once for this request; screens read it. */
    page: {
      /** the route of spec §2.3 this path names, or null (not found) */
      match: import('./lib/core/routes').RouteMatch | null;
      /** the config this page loads (expo, url id, type), or null (no config: root, landings, 404) */
      key: import('./lib/page/load').ConfigKey | null;
      /** the organiser's config (`getCustomerId`), or null when the page has none or it failed */
      config: import('./lib/contract').FormConfig | null;
      /** true when the page needed a config and could not get one (spec §8: search.otherError) */
      configFailed: boolean;
      /** what the config does to the page (spec §4) */
      view: import('./lib/page/load').PageView;
      /** the no-JS round trip's message for this page (already removed from the cookie) */
      flash: import('./lib/page/flash').Flash | null;
      /** what the page shows of that flash: values, each field's message, the notice (Notice.astro, FieldError.astro) */
      form: import('./lib/screens/form-state').PageForm;
      /** the contact the visitor proved with a code (signed cookie `vc`), any expo; null when none */
      contact: import('./lib/lookup/contact-cookie').VerifiedContact | null;
      /** true when the expo asks for the epidemic-prevention pledge (spec §2.5) and this visit has not made it */
      pledge: boolean;
      /**
       * The Turnstile widget to show on a lookup page: only once this visitor
       * was asked for a challenge (its wait ticket cookie) and only when Turnstile is configured
       */
      challenge: { siteKey: string; scriptUrl: string } | null;
      /**
       * The messaging app's share card (src/lib/page/wx-share.ts): the app id and the JS-SDK's URL
       * when this page's share tags are to be given to the JS-SDK; null otherwise
       */
      shareCard: { appId: string; sdkUrl: string } | null;
      /** inside the messaging app or one of its mini-programs (user agent): the back script may be needed (src/lib/page/mini-program.ts) */
      miniProgramContext: boolean;
      /** the matched screen's data, from its loader in src/lib/screens (null: a landing, no route) */
      screen: import('./lib/screens').ScreenData | null;
      /** a pledge form's signed ticket (src/lib/seat/pledge.ts), '' without a usable SESSION_SECRET */
      pledgeTicket: (expoId: number) => Promise<string>;
      /** the credential's wallet links, each null when its secrets are not set or do not load */
      wallet: (
        params: import('./lib/core/routes').SuccessParams,
        pass: { expoName: string; attendeeName: string; attendeeClass: string },
      ) => Promise<{ apple: string | null; google: string | null }>;
    };
  }
}
