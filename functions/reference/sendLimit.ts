/**
 * Per-contact send limits (docs/upstream.md "What the reference upstream adds"): 60 s between
 * sends (the spec §9 countdown) and at most 5 sends an hour. Counted per expo and contact,
 * as codes are (a code of one expo unlocks nothing in another), so the demo contacts that
 * the seed reuses across expos can be tried expo after expo.
 */

/** The limits, as data. */
export const SEND_LIMITS = { minGapMs: 60_000, windowMs: 3_600_000, maxPerWindow: 5 } as const;
export type SendLimits = { minGapMs: number; windowMs: number; maxPerWindow: number };

/**
 * The limits in force: the defaults above, or an operator's override through
 * `REF_SEND_INTERVAL_S` and `REF_SENDS_PER_HOUR` (the browser tests send many codes to the
 * same demo contacts; the limits themselves are tested in workerd).
 */
export function sendLimits(env: { REF_SEND_INTERVAL_S?: string | undefined; REF_SENDS_PER_HOUR?: string | undefined }): SendLimits {
  const gap = Number(env.REF_SEND_INTERVAL_S);
  const perHour = Number(env.REF_SENDS_PER_HOUR);
  return {
    minGapMs: env.REF_SEND_INTERVAL_S && Number.isInteger(gap) && gap >= 0 ? gap * 1000 : SEND_LIMITS.minGapMs,
    windowMs: SEND_LIMITS.windowMs,
    maxPerWindow: env.REF_SENDS_PER_HOUR && Number.isInteger(perHour) && perHour > 0 ? perHour : SEND_LIMITS.maxPerWindow,
  };
}

/** Null when a send may go now; otherwise the reason to show. */
export async function sendRefusal(
  db: D1Database,
  expoId: number,
  contact: string,
  nowMs: number,
  limits: SendLimits = SEND_LIMITS,
): Promise<string | null> {
  const row = await db
    .prepare(
      'SELECT count(*) AS n, max(sent_at) AS last FROM send_log WHERE contact = ? AND expo_id = ? AND sent_at > ?',
    )
    .bind(contact, expoId, nowMs - SEND_LIMITS.windowMs)
    .first<{ n: number; last: number | null }>();
  const n = row?.n ?? 0;
  const last = row?.last ?? null;
  if (n >= limits.maxPerWindow) {
    return `too many codes: at most ${limits.maxPerWindow} an hour for this contact; try again later`;
  }
  if (last !== null && nowMs - last < limits.minGapMs) {
    const wait = Math.ceil((limits.minGapMs - (nowMs - last)) / 1000);
    return `too frequent: wait ${wait} s before requesting another code`;
  }
  return null;
}

/** Records a delivered send, dropping this contact's entries that no limit looks at any more. */
export async function logSend(db: D1Database, contact: string, expoId: number, nowMs: number): Promise<void> {
  await db.batch([
    db.prepare('DELETE FROM send_log WHERE contact = ? AND sent_at <= ?').bind(contact, nowMs - SEND_LIMITS.windowMs),
    db.prepare('INSERT INTO send_log (contact, expo_id, sent_at) VALUES (?, ?, ?)').bind(contact, expoId, nowMs),
  ]);
}
