/**
 * The upstream calls actions use, as ports: each a `Pick` of the contract's one declaration
 * (src/lib/contract `Upstream`), so a call's signature is written once. The edge's client
 * (functions/upstream) implements it; unit tests pass fakes. Transport faults are thrown and
 * answered by the adapter (spec §8).
 */
import type { Upstream } from '../contract';

export type { Contact } from '../contract';

/** The form config of a customer url (spec §3). */
export type ConfigCall = Pick<Upstream, 'getCustomerId'>;

/** The lookup's calls (spec §4). */
export type LookupCalls = Pick<Upstream, 'sendSmsCode' | 'sendEmailCode' | 'captchaVerify' | 'queryRegistrations'>;

/** The registration (spec §5): its config, the custom label, and the visitor's or the exhibitor's registration call. */
export type RegisterCall = Pick<Upstream, 'getCustomerId' | 'getForm' | 'addUserInfo' | 'addExhiUserInfor'>;

/** The business-card recognition (spec §7 camera5). */
export type CameraCalls = Pick<Upstream, 'getCustomerId' | 'camera5'>;
