/**
 * The shapes of the upstream calls actions use, as ports: what an action reads of a call's
 * result, nothing more. The edge's client (functions/upstream) satisfies them; unit tests
 * pass fakes. Transport faults are thrown and answered by the adapter (spec §8).
 */
import type { Registration, SecondFormRef } from '../util/domain';
import type { Lang } from '../core/languages';
import type { DefinePort } from '../form/define';
import type { LookupCallName, RegisterCallName } from '../expo/haisi';

/** A call's answer: success (code 200, 201 or 202) with its data, or a refusal with the upstream's code and message. */
export type Result<T> = { ok: true; code: number; msg: string | null; data: T } | { ok: false; kind: 'refused'; code: number; msg: string | null };

/** A contact as the upstream receives it (spec §2.1: phone mode or e-mail mode). */
export type Contact = { type: 'phone'; areaCode: string; national: string } | { type: 'email'; email: string };

/** What actions read of a customer url's form config (spec §3). */
export interface FormConfigView {
  customerForm: unknown;
  customerWx: { isOpenBusinessCard?: number | null | undefined } | null;
  activity: { id?: number | null | undefined } | null;
}

/** The form config of a customer url. */
export interface ConfigCall {
  getCustomerId(p: { expoId: number; fId: number; ty?: string | undefined }): Promise<Result<FormConfigView>>;
}

/** The lookup's calls (spec §4). */
export interface LookupCalls {
  sendSmsCode(p: { expoId: number; areaCode: string; national: string }): Promise<Result<unknown>>;
  sendEmailCode(p: { expoId: number; email: string; lang: Lang }): Promise<Result<unknown>>;
  captchaVerify(p: { expoId: number; contact: Contact; captcha: string }): Promise<Result<unknown>>;
  queryRegistrations(p: {
    expoId: number;
    contact: Contact;
    captcha: string;
    urlsId?: number | undefined;
    /** which lookup (src/lib/expo/haisi.ts): default the contact's own queryUserExpoId / queryEmailUserExpoId */
    call?: LookupCallName | undefined;
  }): Promise<Result<Registration[]> | { ok: false; kind: 'second-form'; code: number; msg: string | null; data: SecondFormRef }>;
}

/** The registration call (spec §5): its euCode, or 20001 when the contact is registered already. */
export interface RegisterCall extends ConfigCall, DefinePort {
  addUserInfo(p: {
    expoId: number;
    urlsId: number;
    values: Readonly<Record<string, unknown>>;
    /** which registration call (src/lib/expo/haisi.ts): default addUserInfo */
    call?: RegisterCallName | undefined;
  }): Promise<Result<{ euCode: string }> | { ok: false; kind: 'already-registered'; code: number; msg: string | null }>;
  /** spec §7 `exhiCustomerUser/addExhiUserInfor`: an exhibitor's registration (docs/upstream.md "Exhibitor registration") */
  addExhiUserInfor(p: {
    expoId: number;
    urlsId: number;
    values: Readonly<Record<string, unknown>>;
  }): Promise<Result<{ euCode: string }>>;
}

/** The business-card recognition (spec §7 camera5). */
export interface CameraCalls extends ConfigCall {
  camera5(p: { expoId: number; image: string }): Promise<Result<unknown>>;
}
