/**
 * The expo a call is about: every call carries an `expoId` header (docs/upstream.md "Wire rules").
 * `withExpo` loads its row once and refuses unknown or malformed ids with a clear envelope.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { RefCode, reply } from './envelope';

/** A row of `expos`. */
export interface ExpoRow {
  id: number;
  aes_key: string;
  exhi_name: string | null;
  exhi_name_en: string | null;
  address: string | null;
  end_time: string | null;
  show_logo: string | null;
  bottom_href: string | null;
  bottom_instructions: string | null;
  utc_offset_minutes: number;
  start_time: string | null;
  hall: string | null;
  contact_phone: string | null;
  contact_email: string | null;
}

/** Hono environment of every `/custom` handler: bindings plus the loaded expo. */
export interface RefEnv {
  Bindings: AppEnv;
  Variables: { expo: ExpoRow };
}

/** Reads the expo row by id; null when there is none. */
export async function findExpo(db: D1Database, id: number): Promise<ExpoRow | null> {
  return db.prepare('SELECT * FROM expos WHERE id = ?').bind(id).first<ExpoRow>();
}

/** Parses a decimal expo id (header, body or decrypted param); null when it is not one. */
export function parseExpoId(raw: unknown): number | null {
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d{1,12}$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Middleware: loads the `expoId` header's expo into `c.var.expo`, or answers 400/404. */
export const withExpo: MiddlewareHandler<RefEnv> = async function withExpo(c, next) {
  const header = c.req.header('expoId');
  const id = parseExpoId(header);
  if (id === null) {
    return reply(c, RefCode.BAD_INPUT, 'the expoId header is missing or not a decimal expo id');
  }
  const expo = await findExpo(c.env.DB, id);
  if (!expo) return reply(c, RefCode.NOT_FOUND, `unknown expo ${id}`);
  c.set('expo', expo);
  await next();
  return undefined;
};

/**
 * Now as expo-local "YYYY-MM-DD HH:mm:ss" (docs/upstream.md "Records": createtime is expo-local).
 * @example expoLocalTime(Date.UTC(2026, 0, 1, 0, 0, 0), 420) // '2026-01-01 07:00:00'
 */
export function expoLocalTime(nowMs: number, utcOffsetMinutes: number): string {
  const d = new Date(nowMs + utcOffsetMinutes * 60_000);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}
