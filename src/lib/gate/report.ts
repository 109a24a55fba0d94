/**
 * The organiser's view of the gate, pure: the expo-local day, the stats table (admitted and
 * refused per gate and hour, from checkInStats) and the scans as CSV (from checkInLog).
 */
import { marketOf } from '../tickets/money';
import { expoLocalText } from '../tickets/tickets';

/**
 * The expo-local day of `now`, "YYYY-MM-DD" (the expo's UTC offset: src/lib/tickets/money.ts).
 * @example expoToday(1308, Date.UTC(2026, 11, 1, 17, 0)) // '2026-12-02' (UTC+8)
 */
export function expoToday(expoId: number, now: number): string {
  return expoLocalText(now, marketOf(expoId).utcOffsetMinutes).slice(0, 10);
}

/** One stats line as checkInStats answers it. */
export interface StatRow {
  day: string;
  hour: number;
  gate: string;
  admitted: number;
  refused: number;
}

/** The stats table: lines by day, hour and gate, and the totals. */
export interface StatsTable {
  rows: (StatRow & { hourText: string })[];
  admitted: number;
  refused: number;
}

/** Orders and totals the stats lines; `hourText` is "09:00–10:00". */
export function statsTable(rows: readonly StatRow[]): StatsTable {
  const two = (n: number) => String(n).padStart(2, '0');
  const sorted = [...rows].sort((a, b) => a.day.localeCompare(b.day) || a.hour - b.hour || a.gate.localeCompare(b.gate));
  return {
    rows: sorted.map((r) => ({ ...r, hourText: `${two(r.hour)}:00–${two((r.hour + 1) % 24)}:00` })),
    admitted: rows.reduce((n, r) => n + r.admitted, 0),
    refused: rows.reduce((n, r) => n + r.refused, 0),
  };
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; a cell that starts
 * with `=`, `+`, `-`, `@` (or a tab or carriage return, which spreadsheets also read as the start of
 * a formula) gets a leading `'`, so a gate named `=HYPERLINK(…)` stays text in a spreadsheet.
 * @example csvCell('=1+1') // "'=1+1"
 * @example csvCell('a,"b"') // '"a,""b"""'
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV document: UTF-8 BOM (so Excel reads Chinese names), CRLF line ends, the header first. */
export function csvDocument(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/**
 * A registration code as the scan export shows it by default (issue 30): the first 4 and the last
 * 2 characters, enough to find a scan, too little to get in with. Anyone holding a 24-hour staff
 * link may download the export; a full code is a ticket. A short text keeps less: 6 to 9
 * characters show the first 2 and the last 1, fewer show none.
 * @example maskCode('PF4R5MHUHIPEQBHR') // 'PF4R…HR'
 * @example maskCode('ABCDEFG') // 'AB…G'
 * @example maskCode('ABC') // '…'
 */
export function maskCode(code: string): string {
  const chars = [...code];
  if (chars.length >= 10) return `${chars.slice(0, 4).join('')}…${chars.slice(-2).join('')}`;
  if (chars.length >= 6) return `${chars.slice(0, 2).join('')}…${chars.slice(-1).join('')}`;
  return '…';
}

/** How the export shows codes: masked unless the operator sets `GATE_CSV_CODES=full` (docs/gate.md). */
export type CsvCodes = 'masked' | 'full';

/**
 * The operator's setting `GATE_CSV_CODES`: `full` (any case, spaces around) shows every code
 * whole; anything else, or unset, masks them.
 * @example csvCodes(undefined) // 'masked'
 * @example csvCodes(' FULL ') // 'full'
 */
export function csvCodes(setting: string | null | undefined): CsvCodes {
  return (setting ?? '').trim().toLowerCase() === 'full' ? 'full' : 'masked';
}

/** One scan of the log as a CSV row: the code masked unless the operator asked otherwise. */
export function scanRow(s: { at: string; gate: string; euCode: string; result: string; scanId: string }, codes: CsvCodes): (string | number | null)[] {
  return [s.at, s.gate, codes === 'full' ? s.euCode : maskCode(s.euCode), s.result, s.scanId];
}

/** The scan log's columns, in order (docs/upstream.md "Check-in (the gate)" checkInLog). */
export const SCAN_CSV_HEADER = ['at', 'gate', 'euCode', 'result', 'scanId'] as const;

/** The file name of an expo's scans on a day. */
export function scansFileName(expoId: number, today: string): string {
  return `scans-${expoId}-${today}.csv`;
}
