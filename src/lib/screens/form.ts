/**
 * A registration form's data (spec §2.1 form route, §2.2 per-event forms, §2.3 `/form`,
 * `/proving`, `/repairForm`; §4 20003 second forms; §5 rules): the form definition (from the
 * second form's url when there is one), the values to show (the upstream's saved ones, a kept
 * draft, the flash of a refused post, the verified contact locked in), every failing field's
 * message and the one notice. Registering needs the contact verified on the lookup page: without
 * it `/proving` is the lookup itself (`lookup`), every other form links to it.
 * src/components/screens/FormScreen.astro renders it. Pure over the upstream ports.
 */
import type { Variant } from '../core/variants';
import { contactLock } from '../form/contact';
import { confirmedDefine, DEFINE_PARAM, defineParam, takesDefine, withDefine, type FormDefine } from '../form/define';
import { cameFromNoneFound } from '../form/none-found';
import { shownErrors, type ShownError } from '../form/errors';
import { textOf } from '../form/fields';
import { newIdemKey } from '../form/idempotency';
import { fieldsFor, formPagePath, lookupPagePath, resolveFormPage, verifyAgainPath, type FormPage } from '../form/page';
import { CORRECT_FORM, namedForm } from '../core/named-forms';
import { registrationLabel } from '../core/labels';
import { routePath } from '../core/routes';
import { successPath } from '../lookup/lookup';
import { postedFromData } from '../form/prefill';
import { parseFormDefinition, type FormField } from '../form/schema';
import { ownCodes, provenFor } from '../lookup/contact-cookie';
import { decodeFlash, DRAFT_COOKIE } from '../page/flash';
import { lookupTitleKey } from '../page/titles';
import { pageForm, type PageNotice } from './form-state';
import { available, type ScreenPage, type ScreenPorts } from './page';
import { loadSearch, type SearchData } from './search';
import { defineScreen } from './define';

export interface FormInput {
  route: string;
  rest: string[];
  variant: Variant | null;
}

/** One of the verified contact's own registrations, as the details and correction pages list them. */
export interface OwnRegistration {
  euCode: string;
  name: string;
  label: string;
  company: string;
  title: string;
  /** the correction form of this registration (`/reForm/…?e=`) */
  editHref: string;
  /** its credential page */
  credentialHref: string;
}

/**
 * A named form opened without any path (a legacy link without parameters, spec §2.3): a short
 * page saying what the link is missing, with a link on; never "page not found".
 */
export interface FormLinkData {
  kind: 'formLink';
  route: string;
  heading: string;
}

/**
 * A named form's link without any path (spec §2.3 legacy links); null for every other form path.
 * @example loadFormLink(page, { route: 'ocean', rest: [], variant: null })?.kind // 'formLink'
 */
export function loadFormLink(page: Pick<ScreenPage, 't'>, input: FormInput): FormLinkData | null {
  const named = input.variant === null ? namedForm(input.route) : null;
  return named && input.rest.length === 0 ? { kind: 'formLink', route: named.route, heading: page.t(named.titleKey) } : null;
}

/** Most own registrations a page lists (the cookie keeps at most as many codes). */
const MAX_LISTED = 10;

export interface FormData {
  kind: 'form';
  page: FormPage;
  /** `/proving` without the verified contact: the lookup screen itself */
  lookup: SearchData | null;
  verified: boolean;
  pledge: boolean;
  heading: string;
  name: string | null;
  lookupHref: string;
  /** the form's definition was found (else: form.missing, or search.otherError when the config failed) */
  hasDefinition: boolean;
  fields: FormField[];
  values: Record<string, string>;
  locked: string[];
  errors: (ShownError & { label: string })[];
  notice: Omit<PageNotice, 'key'> | null;
  updatePrompt: boolean;
  /** the business-card camera (the page may then use the camera: permissions-policy) */
  camera: boolean;
  hidden: { route: string; path: string; f: string; idem: string; e: string; define: string };
  /** the link's custom label (`?define=`, spec §3 euDefine) when the organiser confirms it for this url (getForm) */
  define: FormDefine | null;
  /** where a draft is kept in the browser (FormEnhance) */
  storageKey: string;
  /** the lookup that verifies the contact, with `?next=` this page for the named forms */
  verifyHref: string;
  /**
   * `/userInfo`, and `/reForm` without one of the contact's own codes: the contact's own
   * registrations (each with its correction link); null on every other form.
   */
  registrations: OwnRegistration[] | null;
  /** the new registration form of the same page (`/form/…`) */
  formHref: string;
  /** reached from a lookup that found nothing: the verified contact that was searched */
  noneFoundFor: string | null;
}

const TITLE_KEYS: Record<string, string> = {
  repair: 'form.repairTitle',
  secondForm: 'form.secondTitle',
  supplement: 'form.supplementTitle',
};

/** @example (await loadForm(page, ports, { route: 'proving', rest, variant: null })).lookup?.kind // 'search' (not verified) */
export async function loadForm(page: ScreenPage, ports: ScreenPorts, input: FormInput): Promise<FormData | null> {
  const named = input.variant === null ? namedForm(input.route) : null;
  const form = resolveFormPage(input.route, input.rest, input.variant);
  if (!form) return null;
  const { params, kind } = form;
  const { url, t } = page;
  const vc = provenFor(page.contact, params.expoId);
  const second = kind === 'secondForm' ? (vc?.secondForm ?? null) : null;
  const verified = vc !== null && (kind !== 'secondForm' || second !== null);
  const showLookup = kind === 'proving' && !verified;
  const euCodeParam = url.searchParams.get('e') ?? '';
  const euCode = /^[A-Za-z0-9_-]{1,64}$/.test(euCodeParam) ? euCodeParam : '';
  // Pre-fill only from a registration the verified contact's own lookup found: `?e=` is a URL anyone can edit.
  const ownRecord = euCode !== '' && ownCodes(vc).includes(euCode);
  // The link's label stays on the page's own path (a refused post comes back to it) and on the
  // way to the lookup and back (spec §7 getForm).
  const linkDefine = takesDefine(kind) ? defineParam(url.searchParams.get(DEFINE_PARAM)) : null;
  const back = withDefine(formPagePath(form) + (euCode ? `?e=${encodeURIComponent(euCode)}` : ''), linkDefine);
  // Branding from the page's own url; the definition from the second form's url when there is one.
  const [formConfig, saved, record, define] = showLookup
    ? [null, null, null, null]
    : await Promise.all([
        second ? available(ports.getCustomerId({ expoId: params.expoId, fId: second.urlsId, ty: params.ty })) : null,
        second && verified ? available(ports.queryFromUserExpoId({ expoId: params.expoId, userId: second.userId, urlsId: second.urlsId })) : null,
        ownRecord && verified && (kind === 'repair' || kind === 'supplement' || kind === 'correct')
          ? available(ports.queryCustomerCode({ expoId: params.expoId, euCode }))
          : null,
        // spec §7 getForm: asked once, for a new registration; an unknown label is the normal form.
        verified && linkDefine !== null ? confirmedDefine(ports, { expoId: params.expoId, fId: params.fId, raw: linkDefine }) : null,
      ]);
  // `/userInfo` lists the contact's own registrations; `/reForm` too, until one is chosen.
  const listsOwn = verified && (kind === 'details' || (kind === 'correct' && !ownRecord));
  const registrations = listsOwn ? await ownRegistrations(page, ports, form, ownCodes(vc).slice(0, MAX_LISTED)) : null;
  const defCfg = second ? formConfig : page.config;
  const fields = fieldsFor(kind, parseFormDefinition(defCfg?.customerForm ?? null).fields);
  const lock = contactLock(fields, vc, params.expoId);
  // The epidemic-prevention pledge first, on expos that ask for it (the page loader knows).
  const pledge = page.pledge;
  const flash = pledge ? null : page.flash;
  const shown = pageForm(flash, t);
  const known: Record<string, unknown> = {
    ...(saved ?? {}),
    ...(record ? { uname: record.uname, ucompany: record.ucompany, ucardid: record.ucardid, ucompanyTitle: record.ucompanyTitle } : {}),
  };
  // What a no-JS visitor typed before the confirmation expired, kept while a new code was fetched.
  const draft = verified && !pledge ? decodeFlash(page.cookie(DRAFT_COOKIE), back) : null;
  const values = { ...postedFromData(fields, known), ...(draft?.values ?? {}), ...shown.values, ...(lock?.values ?? {}) };
  // Every failing field of a no-JS post, each with its own message.
  const errors = shownErrors(fields, flash?.errors ?? (flash?.error ? [flash.error] : []), (k) => t(k)).map((e) => {
    const field = fields.find((x) => x.key === e.field);
    return { ...e, label: field ? textOf(field.label, page.lang) : e.field };
  });
  const updatePrompt = shown.notice?.key === 'form.updatePrompt';
  // A new registration carries the lookup's own title (one wording on both pages, spec §2.1/§2.2
  // title rule); the organiser's formTitle is the document title (the layout's).
  const heading = named
    ? t(named.titleKey)
    : kind === 'form' || kind === 'proving'
      ? t(lookupTitleKey({ variant: input.variant, urlId: params.fId, ty: params.ty }))
      : t(TITLE_KEYS[kind] ?? 'form.title');
  return {
    kind: 'form',
    page: form,
    lookup: showLookup ? loadSearch(page, { params, variant: input.variant }) : null,
    verified,
    pledge,
    heading,
    name: page.view.name,
    lookupHref: lookupPagePath(form),
    hasDefinition: defCfg !== null,
    fields,
    values,
    locked: lock?.locked ?? [],
    errors,
    notice: shown.notice && !updatePrompt ? { tone: shown.notice.tone, message: shown.notice.message } : null,
    updatePrompt,
    camera: verified && (kind === 'form' || kind === 'proving') && page.config?.customerWx?.isOpenBusinessCard === 1,
    hidden: { route: form.route, path: `${params.fId}/${params.eid}/${params.ty}`, f: url.searchParams.get('f') ?? '', idem: newIdemKey(), e: euCode, define: define?.define ?? '' },
    define,
    storageKey: `form:${back}`,
    // Named forms send an unverified visitor to the lookup and back here (`next`, like a form post).
    verifyHref: named ? verifyAgainPath(form, back) : withDefine(lookupPagePath(form), linkDefine),
    registrations,
    formHref: routePath({ screen: 'form', route: 'form', params: { fId: params.fId, expoId: params.expoId, ty: params.ty } }),
    noneFoundFor: verified && vc && (kind === 'form' || kind === 'proving') && cameFromNoneFound(url.searchParams) ? vc.contact : null,
  };
}

/** The contact's own registrations by their codes (a code that no longer reads is left out). */
async function ownRegistrations(page: ScreenPage, ports: ScreenPorts, form: FormPage, codes: readonly string[]): Promise<OwnRegistration[]> {
  const { params } = form;
  const read = await Promise.all(codes.map((euCode) => available(ports.queryCustomerCode({ expoId: params.expoId, euCode }))));
  return read.flatMap((r, i) => {
    const euCode = codes[i] ?? '';
    if (!r || !euCode) return [];
    const ids = { fId: params.fId, expoId: params.expoId, ty: params.ty };
    return [
      {
        euCode,
        name: r.uname ?? '',
        label: registrationLabel(r, (k) => page.t(k)),
        company: r.ucompany ?? '',
        title: r.ucompanyTitle ?? '',
        editHref: `${routePath({ screen: 'form', route: CORRECT_FORM, params: ids })}?e=${encodeURIComponent(euCode)}`,
        credentialHref: successPath({ variant: null, urlId: params.fId, euCode, expoId: params.expoId, fId: params.fId }),
      },
    ];
  });
}

/**
 * The registration forms (spec §2.3): personal (the verified contact), a path whose form does not
 * exist (src/lib/form/page.ts resolveFormPage) is not found, and an ended expo sends the form on.
 */
export const formScreen = defineScreen<'form', FormData | FormLinkData>({
  name: 'form',
  components: { form: 'FormScreen', formLink: 'FormLinkScreen' },
  load: (m, page, ports) => {
    const input = { route: m.route, rest: m.rest, variant: m.variant };
    return loadFormLink(page, input) ?? loadForm(page, ports, input);
  },
  personal: true,
  // the business-card camera island's page may use the camera (src/lib/page/permissions-policy.ts); every other response denies it
  allow: (data) => (data.kind === 'form' && data.camera && !data.lookup ? ['camera'] : []),
  missingIsNotFound: true,
  formPage: true,
  prepare: { pledgeTicket: true },
});
