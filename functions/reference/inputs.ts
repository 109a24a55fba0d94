/**
 * Input schemas of every call (docs/upstream.md "Calls") and the two readers all handlers share:
 * `parseInput` (zod → a clear message) and `decryptParam` (an encrypted param → its text).
 */
import { z } from 'zod';
import { AesError, decrypt } from '../../src/lib/contract/aes';

/** A positive decimal id given as a number or a decimal string. */
export const DecimalId = z
  .union([
    z.number().int(),
    z
      .string()
      .trim()
      .regex(/^\d{1,12}$/, 'must be a decimal id'),
  ])
  .transform((v) => Number(v))
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

/** An encrypted param: base64 text (docs/upstream.md "Wire rules"). */
const Encrypted = z.string().trim().min(1, 'is required').max(4096, 'is too long');

/** Body of every send-code call: `{ smsPhone, expoId }`. */
export const SendCodeBody = z.object({
  smsPhone: z.string().trim().min(1, 'is required').max(254, 'is too long'),
  expoId: DecimalId.optional(),
});

/** Query of captchaVerify. */
export const CaptchaVerifyQuery = z.object({
  captcha: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, 'must be digits'),
  phone: z.string().trim().min(1, 'is required').max(254, 'is too long'),
});

/** Query of the two lookups: each value encrypted; `urlsId` (plain or encrypted) only for the bypass. */
export const LookupQuery = z.object({
  expoId: Encrypted,
  email: z.string().trim().max(4096).optional(),
  phone: z.string().trim().max(4096).optional(),
  captcha: Encrypted,
  urlsId: z.string().trim().max(4096).optional(),
});

/** Query of queryFromUserExpoId. */
export const SecondFormQuery = z.object({
  userId: DecimalId,
  urlsId: DecimalId,
  expoId: DecimalId.optional(),
});

/** Query of queryCustomerCode: both encrypted. */
export const CredentialQuery = z.object({ expoId: Encrypted, euCode: Encrypted });

/** Query of getCustomerId. */
export const CustomerIdQuery = z.object({
  fId: DecimalId,
  eId: DecimalId,
  ty: z.string().trim().max(40).optional(),
});

/** Query of selectAESKey: the header says which expo; a query expoId must agree. */
export const AesKeyQuery = z.object({ expoId: DecimalId.optional() });

/** Body of addUserInfo: `data` is the encrypted JSON of the form values. */
export const AddUserInfoBody = z.object({
  expoId: DecimalId.optional(),
  urlsId: DecimalId,
  data: Encrypted.max(65_536, 'is too long'),
});

const ExtraValue = z.union([
  z.string().max(2000),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.string().max(500)).max(50),
]);
const optText = (max: number) => z.string().trim().max(max).optional();

/**
 * The form values inside addUserInfo's `data`. Known keys map to record columns; any other
 * key of the form definition is kept as is in `form_values`. `update: true` answers the
 * 20001 prompt with "update" (spec §5); `userId` completes a second form, `euCode` names the
 * registration a repair form completes.
 */
export const FormValues = z
  .object({
    /** required for a new registration; an update or a second form may leave it out */
    uname: z.string().trim().min(1, 'is required').max(100).optional(),
    phone: optText(32),
    /** the country entry's first word, e.g. `+66`, when `phone` is national */
    areaCode: z
      .string()
      .trim()
      .regex(/^\+\d{1,4}$/, 'must look like +66')
      .optional(),
    email: optText(254),
    ucompany: optText(200),
    ucompanyTitle: optText(200),
    ucardid: optText(40),
    cardType: z.union([z.number().int().min(1).max(6), z.string().regex(/^[1-6]$/)]).optional(),
    activityId: DecimalId.optional(),
    update: z.boolean().optional(),
    /** a second form (code 20003): the registration it belongs to (its `userId`) */
    userId: DecimalId.optional(),
    /** the registration to update (repair form), by its code; it must belong to the same contact */
    euCode: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a registration code')
      .optional(),
    /**
     * Which contact of `data` the edge verified with a code (spec §3 checkType: 1 phone, 2
     * e-mail; beyond the wire contract, README). Only that one decides whose registration this
     * is. Absent: the e-mail when there is one, else the phone.
     */
    checkType: z.union([z.literal(1), z.literal(2), z.enum(['1', '2']).transform(Number)]).optional(),
    /** spec §3 euDefine, the link's custom label (getForm): stored only when it is one of the url's */
    euDefine: z.string().max(200).optional(),
  })
  .catchall(ExtraValue)
  .refine((v) => Boolean(v.phone) || Boolean(v.email), {
    message: 'a phone or an e-mail is required',
    path: ['phone'],
  });
export type FormValues = z.infer<typeof FormValues>;

/** zod's verdict as one readable line, e.g. `smsPhone: is required`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || 'input'}: ${i.message}`).join('; ');
}

/** Parses input; `{ ok: false, msg }` on anything the schema refuses. */
export function parseInput<T extends z.ZodType>(
  schema: T,
  input: unknown,
): { ok: true; value: z.infer<T> } | { ok: false; msg: string } {
  const r = schema.safeParse(input);
  return r.success ? { ok: true, value: r.data } : { ok: false, msg: `bad input: ${describeIssues(r.error)}` };
}

/**
 * Decrypts an encrypted param; null when it does not decrypt with the key. A `+` that a
 * careless client left unencoded in the query arrives as a space and is put back.
 */
export async function decryptParam(raw: string, aesKey: string): Promise<string | null> {
  try {
    return await decrypt(raw.replace(/ /g, '+'), aesKey);
  } catch (err) {
    if (err instanceof AesError) return null;
    throw err;
  }
}

/**
 * Reads "encrypted data" (a form's values): decrypts it with the expo's key, parses the JSON and
 * reads it through a schema; `plain` is the decrypted text (an idempotency key hashes it).
 */
export async function decryptValues<T extends z.ZodType>(
  data: string,
  aesKey: string,
  schema: T,
): Promise<{ ok: true; value: z.infer<T>; plain: string } | { ok: false; msg: string }> {
  const plain = await decryptParam(data, aesKey);
  if (plain === null) return { ok: false, msg: "bad input: data does not decrypt with this expo's key" };
  let json: unknown;
  try {
    json = JSON.parse(plain) as unknown;
  } catch {
    return { ok: false, msg: 'bad input: data is not JSON' };
  }
  const parsed = parseInput(schema, json);
  return parsed.ok ? { ...parsed, plain } : parsed;
}

/** Reads a JSON body; undefined when there is none or it is not JSON (the schema then refuses it). */
export async function readJsonBody(req: Request): Promise<unknown> {
  try {
    return (await req.json()) as unknown;
  } catch {
    return undefined;
  }
}

/** A whole number as decimal text, clamped into [lo, hi]; missing reads as `dflt` (paging parameters). */
export const boundedWhole = (lo: number, hi: number, dflt: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, 'must be a whole number')
    .transform((s) => Math.min(hi, Math.max(lo, Number(s))))
    .optional()
    .transform((v) => v ?? dflt);

/** A small JSON body of at most `max` characters, or null (empty, too large, not JSON). */
export async function readSmallJson(req: Request, max: number): Promise<unknown> {
  const text = await req.text().catch(() => '');
  if (text.length === 0 || text.length > max) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
