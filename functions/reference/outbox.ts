/**
 * The development outbox (docs/upstream.md "What the reference upstream adds"): with
 * `DEV_OUTBOX=1` and no webhook, codes are stored and listed here. Both routes answer 404
 * unless the outbox is on, so a production Worker never shows a code.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { normalizeContact } from './contact';

interface OutboxRow {
  id: number;
  channel: string;
  to_contact: string;
  code: string;
  expo_id: number;
  created_at: number;
  /** the send call (migration 0011); null for older rows */
  sender: string | null;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** How many entries the page lists. */
const PAGE_SIZE = 100;

/**
 * `/outbox` (HTML, newest first) and `/outbox.json?to=` (the latest code for a contact; with
 * `&expoId=`, the latest for that contact on that expo); mount at `/dev`.
 */
export const outbox = new Hono<{ Bindings: AppEnv }>();

outbox.use('*', async function outboxGate(c, next) {
  if (c.env.DEV_OUTBOX !== '1') return c.notFound();
  await next();
  return undefined;
});

outbox.get('/outbox', async function outboxPage(c) {
  const { results } = await c.env.DB.prepare('SELECT * FROM outbox ORDER BY id DESC LIMIT ?')
    .bind(PAGE_SIZE)
    .all<OutboxRow>();
  const rows = results
    .map(
      (r) =>
        `<tr><td>${escapeHtml(new Date(r.created_at).toISOString())}</td><td>${escapeHtml(r.channel)}</td><td>${escapeHtml(r.sender ?? '')}</td>` +
        `<td>${escapeHtml(r.to_contact)}</td><td>${r.expo_id}</td><td><code>${escapeHtml(r.code)}</code></td></tr>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Development outbox</title></head>
<body><h1>Development outbox</h1>
<p>Codes the reference upstream would have sent (DEV_OUTBOX=1), newest first.</p>
<table><thead><tr><th>time (UTC)</th><th>channel</th><th>sender</th><th>to</th><th>expo</th><th>code</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="5">No codes yet.</td></tr>'}
</tbody></table></body></html>`;
  return c.html(html);
});

outbox.get('/outbox.json', async function outboxJson(c) {
  const to = normalizeContact(c.req.query('to') ?? '');
  if (to === null) return c.json({ error: 'to must be an e-mail address or a phone number' }, 400);
  // Optional: only the codes sent for one expo (a contact may be sent codes on several at once).
  const expoParam = c.req.query('expoId');
  const expoId = expoParam === undefined ? null : /^[1-9]\d{0,9}$/.test(expoParam) ? Number(expoParam) : NaN;
  if (Number.isNaN(expoId)) return c.json({ error: 'expoId must be a positive whole number' }, 400);
  const row = await (expoId === null
    ? c.env.DB.prepare('SELECT * FROM outbox WHERE to_contact = ? ORDER BY id DESC LIMIT 1').bind(to)
    : c.env.DB.prepare('SELECT * FROM outbox WHERE to_contact = ? AND expo_id = ? ORDER BY id DESC LIMIT 1').bind(to, expoId)
  ).first<OutboxRow>();
  if (!row) return c.json({ error: `no code sent to ${to}${expoId === null ? '' : ` for expo ${expoId}`}` }, 404);
  return c.json({
    to: row.to_contact,
    channel: row.channel,
    sender: row.sender ?? null,
    code: row.code,
    expoId: row.expo_id,
    createdAt: new Date(row.created_at).toISOString(),
  });
});
