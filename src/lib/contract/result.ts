/**
 * What an upstream call returns: success and business refusals are values (spec §8: 200, 201
 * and 202 succeed; any other code is a refusal whose `msg` the user may see). Transport faults
 * are thrown as UpstreamError instead (errors.ts).
 */
import type { SecondFormRef } from './lookup';

/** A success reply (code 200, 201 or 202) with its data read through the call's schema. */
export interface Ok<T> {
  ok: true;
  code: number;
  msg: string | null;
  data: T;
}

/** A refusal: any code but 200/201/202 (and but the special codes of the call). */
export interface Refused {
  ok: false;
  kind: 'refused';
  code: number;
  msg: string | null;
}

/** Lookup code 20003: the contact has a second form to complete (spec §4, Jakarta and Bangkok). */
export interface SecondForm {
  ok: false;
  kind: 'second-form';
  code: 20003;
  msg: string | null;
  data: SecondFormRef;
}

/** addUserInfo code 20001: the phone or ID number already has a registration (spec §5 update prompt). */
export interface AlreadyRegistered {
  ok: false;
  kind: 'already-registered';
  code: 20001;
  msg: string | null;
  data: { id: number | null };
}

/** The usual result: success or refusal. */
export type UpstreamResult<T> = Ok<T> | Refused;
