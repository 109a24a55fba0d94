/**
 * Delivery of codes (docs/upstream.md "What the reference upstream adds"): a webhook the operator
 * sets (`DELIVERY_WEBHOOK_URL`), else the development outbox (`DEV_OUTBOX=1`), else none, in
 * which case sends are refused.
 */
import type { AppEnv } from '../env';

/** A code to deliver. */
export interface CodeMessage {
  channel: 'sms' | 'email';
  to: string;
  code: string;
  expoId: number;
  /** the send call it came through (e.g. `/sms/getSmsCodeHJC`): kept in the outbox */
  sender?: string;
}

/** How long the webhook may take before the send is refused. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Delivered, or the reason the send is refused (shown as the 600 `msg`). */
export type DeliveryResult = { ok: true } | { ok: false; reason: string };

/** Which delivery the env selects; 'none' refuses every send. */
export function deliveryMode(env: Pick<AppEnv, 'DELIVERY_WEBHOOK_URL' | 'DEV_OUTBOX'>): 'webhook' | 'outbox' | 'none' {
  if (env.DELIVERY_WEBHOOK_URL) return 'webhook';
  if (env.DEV_OUTBOX === '1') return 'outbox';
  return 'none';
}

/** Delivers a code by the configured means. */
export async function deliver(env: AppEnv, msg: CodeMessage, nowMs: number): Promise<DeliveryResult> {
  const mode = deliveryMode(env);
  if (mode === 'none') return { ok: false, reason: 'no delivery configured' };
  if (mode === 'outbox') {
    await env.DB.prepare('INSERT INTO outbox (channel, to_contact, code, expo_id, created_at, sender) VALUES (?, ?, ?, ?, ?, ?)')
      .bind(msg.channel, msg.to, msg.code, msg.expoId, nowMs, msg.sender ?? null)
      .run();
    // Neither the contact nor the code (issue 30: no code or contact in any log line): /dev/outbox shows both.
    console.log(`[dev outbox] ${msg.channel}${msg.sender ? ` (${msg.sender})` : ''} code kept for expo ${msg.expoId}: see /dev/outbox`);
    return { ok: true };
  }
  try {
    const res = await fetch(env.DELIVERY_WEBHOOK_URL ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(msg),
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    if (!res.ok)
      return {
        ok: false,
        reason: `the code could not be delivered (provider answered ${res.status}); try again later`,
      };
    return { ok: true };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return {
      ok: false,
      reason: timedOut
        ? 'the code could not be delivered (provider timed out); try again later'
        : 'the code could not be delivered; try again later',
    };
  }
}
