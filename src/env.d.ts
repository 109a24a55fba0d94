/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The visitor's language, from the `_h5_lang` cookie (src/middleware.ts). */
    lang: import('./lib/languages').Lang;
    /** Translation function for `lang`. */
    t: import('./i18n').Translate;
  }
}
