/**
 * Per-contact send limits (UPSTREAM.md "What the reference upstream adds"): 60 s between
 * sends (the spec §9 countdown) and at most 5 sends an hour. Counted per expo and contact,
 * as codes are (a code of one expo unlocks nothing in another), so the demo contacts that
 * the seed reuses across expos can be tried expo after expo.
 */

/** The limits, as data. */
export const SEND_LIMITS = { minGapMs: 60_000, windowMs: 3_600_000, maxPerWindow: 5 } as const;

/** Null when a send may go now; otherwise the reason to show. */
export async function sendRefusal(
  db: D1Database,
  expoId: number,
  contact: string,
  nowMs: number,
): Promise<string | null> {
  const row = await db
    .prepare(
      'SELECT count(*) AS n, max(sent_at) AS last FROM send_log WHERE contact = ? AND expo_id = ? AND sent_at > ?',
    )
    .bind(contact, expoId, nowMs - SEND_LIMITS.windowMs)
    .first<{ n: number; last: number | null }>();
  const n = row?.n ?? 0;
  const last = row?.last ?? null;
  if (n >= SEND_LIMITS.maxPerWindow) {
    return `too many codes: at most ${SEND_LIMITS.maxPerWindow} an hour for this contact; try again later`;
  }
  if (last !== null && nowMs - last < SEND_LIMITS.minGapMs) {
    const wait = Math.ceil((SEND_LIMITS.minGapMs - (nowMs - last)) / 1000);
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
