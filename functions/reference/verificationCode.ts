/**
 * One-time codes (docs/upstream.md "What the reference upstream adds"): 6 digits from a CSPRNG,
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
  salt: string;
  expires_at: number;
  wrong_tries: number;
}

const refuse = (reason: CodeRefusal, msg: string = CODE_REFUSALS[reason]): CodeCheck => ({ ok: false, reason, msg });

/**
 * Checks a code for a contact. `verify` (captchaVerify) succeeds once per code and marks it
 * verified; `lookup` succeeds for any right try until expiry. A wrong try counts in both.
 *
 * The check and the count are one UPDATE: D1 runs statements one at a time,
 * so of 40 guesses sent at once exactly MAX_WRONG_TRIES are compared and counted, and every
 * later one (the right code included) finds the row locked. Reading the row first and
 * counting afterwards let 7 to 16 of them through.
 */
export async function checkCode(
  db: D1Database,
  expoId: number,
  contact: string,
  code: string,
  mode: 'verify' | 'lookup',
  nowMs: number,
): Promise<CodeCheck> {
  const found = await db
    .prepare('SELECT salt, expires_at, wrong_tries FROM verification_codes WHERE expo_id = ? AND contact = ?')
    .bind(expoId, contact)
    .first<CodeRow>();
  if (!found) return refuse('none');
  // A non-digit try can never be right; hashing it anyway keeps one path for every try.
  const hash = await hashCode(/^\d{6}$/.test(code) ? code : `not-a-code:${code}`, found.salt);
  const row = await db
    .prepare(
      `UPDATE verification_codes
       SET wrong_tries = wrong_tries + (code_hash != ?1),
           verified_at = CASE WHEN ?2 = 1 AND code_hash = ?1 AND verified_at IS NULL THEN ?3 ELSE verified_at END
       WHERE expo_id = ?4 AND contact = ?5 AND salt = ?6 AND expires_at >= ?3 AND wrong_tries < ?7
       RETURNING code_hash = ?1 AS right, wrong_tries, verified_at = ?3 AS verified_now`,
    )
    .bind(hash, mode === 'verify' ? 1 : 0, nowMs, expoId, contact, found.salt, MAX_WRONG_TRIES)
    .first<{ right: number; wrong_tries: number; verified_now: number }>();
  if (!row) {
    // Nothing was compared: say why (a read after the fact; only the message depends on it).
    const now = await db
      .prepare('SELECT salt, expires_at, wrong_tries FROM verification_codes WHERE expo_id = ? AND contact = ?')
      .bind(expoId, contact)
      .first<CodeRow>();
    if (!now) return refuse('none');
    if (nowMs > now.expires_at) return refuse('expired');
    if (now.wrong_tries >= MAX_WRONG_TRIES) return refuse('locked');
    // The code was replaced by a new send between the two statements: this try was for the old one.
    return refuse('wrong');
  }
  if (row.right !== 1) {
    const left = MAX_WRONG_TRIES - row.wrong_tries;
    return refuse(
      'wrong',
      left > 0 ? `the code is wrong; ${left} tries left` : 'the code is wrong; no tries left, request a new code',
    );
  }
  if (mode === 'lookup') return { ok: true };
  // Single use: only the first verify of this code set verified_at.
  return row.verified_now === 1 ? { ok: true } : refuse('used');
}
