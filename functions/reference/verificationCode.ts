/**
 * One-time codes (UPSTREAM.md "What the reference upstream adds"): 6 digits from a CSPRNG,
 * stored only as a salted SHA-256, valid 10 minutes, at most 5 wrong tries, replaced by a
 * new send.
 *
 * Lookup design: a code proves the contact twice over, in two ways.
 * - `captchaVerify` accepts a right, unexpired code once (`verify`): a second verify of the
 *   same code is refused, so a code verifies exactly one time.
 * - the lookups (queryUserExpoId, queryEmailUserExpoId) check the code themselves (`lookup`):
 *   right, unexpired, same contact, wrong tries counted. They do not need a prior
 *   captchaVerify, and they may repeat until the code expires, so the edge can re-read the
 *   list for the 10 minutes its verified-contact cookie lives (DESIGN.md). No lookup is
 *   possible without the right code for that very contact.
 */

/** How long a code lives (10 minutes). */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong tries a code survives; the next try is refused even when right. */
export const MAX_WRONG_TRIES = 5;

const encoder = new TextEncoder();

/** A uniformly random 6-digit code: rejection sampling keeps every value equally likely. */
export function generateCode(): string {
  // 4294000000 is the largest multiple of 10^6 not above 2^32; values from it up are redrawn.
  const limit = Math.floor(0x1_0000_0000 / 1_000_000) * 1_000_000;
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    const v = buf[0] ?? limit;
    if (v < limit) return String(v % 1_000_000).padStart(6, '0');
  }
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** SHA-256 of `salt || code`, hex. */
export async function hashCode(code: string, saltHex: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${saltHex}:${code}`));
  return toHex(new Uint8Array(digest));
}

/** Compares two equal-length hex strings without an early exit. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Stores a fresh code for a contact, replacing any earlier one (its tries and state too). */
export async function storeCode(
  db: D1Database,
  expoId: number,
  contact: string,
  code: string,
  nowMs: number,
): Promise<void> {
  const salt = toHex(crypto.getRandomValues(new Uint8Array(16)));
  const hash = await hashCode(code, salt);
  await db
    .prepare(
      `INSERT OR REPLACE INTO verification_codes (expo_id, contact, code_hash, salt, created_at, expires_at, wrong_tries, verified_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, NULL)`,
    )
    .bind(expoId, contact, hash, salt, nowMs, nowMs + CODE_TTL_MS)
    .run();
}

/** Why a code check failed, with the message the user sees. */
export const CODE_REFUSALS = {
  none: 'no code was sent to this contact; request a code first',
  expired: 'the code has expired; request a new one',
  locked: 'too many wrong tries; request a new code',
  used: 'the code has already been used; request a new one',
  wrong: 'the code is wrong',
} as const;
export type CodeRefusal = keyof typeof CODE_REFUSALS;

/** The outcome of checking a code. */
export type CodeCheck = { ok: true } | { ok: false; reason: CodeRefusal; msg: string };

interface CodeRow {
  code_hash: string;
  salt: string;
  expires_at: number;
  wrong_tries: number;
  verified_at: number | null;
}

const refuse = (reason: CodeRefusal, msg: string = CODE_REFUSALS[reason]): CodeCheck => ({ ok: false, reason, msg });

/**
 * Checks a code for a contact. `verify` (captchaVerify) succeeds once per code and marks it
 * verified; `lookup` succeeds for any right try until expiry. A wrong try counts in both.
 */
export async function checkCode(
  db: D1Database,
  expoId: number,
  contact: string,
  code: string,
  mode: 'verify' | 'lookup',
  nowMs: number,
): Promise<CodeCheck> {
  const row = await db
    .prepare(
      'SELECT code_hash, salt, expires_at, wrong_tries, verified_at FROM verification_codes WHERE expo_id = ? AND contact = ?',
    )
    .bind(expoId, contact)
    .first<CodeRow>();
  if (!row) return refuse('none');
  if (nowMs > row.expires_at) return refuse('expired');
  if (row.wrong_tries >= MAX_WRONG_TRIES) return refuse('locked');
  const right = /^\d{6}$/.test(code) && sameHex(await hashCode(code, row.salt), row.code_hash);
  if (!right) {
    // Conditional increment: concurrent wrong tries cannot push past the limit unseen.
    await db
      .prepare(
        'UPDATE verification_codes SET wrong_tries = wrong_tries + 1 WHERE expo_id = ? AND contact = ? AND code_hash = ?',
      )
      .bind(expoId, contact, row.code_hash)
      .run();
    const left = MAX_WRONG_TRIES - row.wrong_tries - 1;
    return refuse(
      'wrong',
      left > 0 ? `the code is wrong; ${left} tries left` : 'the code is wrong; no tries left, request a new code',
    );
  }
  if (mode === 'lookup') return { ok: true };
  // Single use: only the first verify of this code flips verified_at.
  const res = await db
    .prepare(
      'UPDATE verification_codes SET verified_at = ? WHERE expo_id = ? AND contact = ? AND code_hash = ? AND verified_at IS NULL',
    )
    .bind(nowMs, expoId, contact, row.code_hash)
    .run();
  return res.meta.changes === 1 ? { ok: true } : refuse('used');
}
