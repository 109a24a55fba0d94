#!/usr/bin/env node
// Staff gate keys (README "The gate"), in the edge's own D1 database (binding STAFF):
//
//   npm run gate -- add --expo 1308 --gate "Gate 3" [--url 21308] [--hours 24] [--base URL] [--remote --env production] [--persist DIR]
//   npm run gate -- list --expo 1308 [--remote --env production] [--persist DIR]
//   npm run gate -- revoke ID [--remote --env production] [--persist DIR]
//
// `add` prints the staff link `{base}/gate/{eid}?key=KEY`: the key is shown once and never stored
// (only its SHA-256). `--url` names the customer url (the `fId` of the show's visitor links) whose
// organiser config gives the gate page the show's name (docs/gate.md). Local by default (`--persist` the state dir, default .wrangler/state, or
// PERSIST_DIR); `--remote --env NAME` writes that environment's deployed database (wrangler.toml
// [env.NAME]; the top level is the local Worker, so `--remote` needs `--env`). The key format is src/lib/gate/keys.ts's
// (32 random bytes, base64url; tests/unit/gate-keys.test.ts checks that the two agree).
import { createHash, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { run } from './lib.mjs';

/** A key and its public id and hash, as the edge reads them. */
export function newGateKey() {
  const key = randomBytes(32).toString('base64url');
  return { key, id: randomBytes(5).toString('hex'), hash: createHash('sha256').update(key, 'utf8').digest('hex') };
}

/** base64url of the expo id's text, as every route encodes it (src/lib/util/ids.ts encodeId). */
export function encodeExpo(expoId) {
  return Buffer.from(String(expoId), 'utf8').toString('base64url');
}

/** A SQL string literal. */
function sqlText(s) {
  return `'${String(s).replace(/'/g, "''")}'`;
}

/**
 * Runs SQL on a D1 database (default STAFF; the browser specs also seed DB); resolves the rows of the last statement.
 * @param {string} sql
 * @param {{ remote?: boolean, env?: string, persist?: string, db?: string }} [opts]
 * @returns {Promise<Record<string, unknown>[]>}
 */
export async function execute(sql, { remote = false, env, persist = process.env.PERSIST_DIR ?? '.wrangler/state', db = 'STAFF' } = {}) {
  if (remote && !env) throw new Error('--remote needs --env NAME (production, staging: wrangler.toml [env.NAME]); the top level is the local Worker.');
  let out = '';
  const where = remote ? ['--remote', '--env', env] : ['--local', '--persist-to', persist ?? process.env.PERSIST_DIR ?? '.wrangler/state'];
  await run('npx', ['wrangler', 'd1', 'execute', db, ...where, '--json', '--command', sql], {
    env: { CI: 'true' },
    capture: (text) => (out = text),
  });
  const start = out.indexOf('[');
  try {
    const parsed = JSON.parse(out.slice(start));
    return parsed.at(-1)?.results ?? [];
  } catch {
    return [];
  }
}

/**
 * Makes a key; resolves `{ id, key, link, expiresAt }`.
 * @param {{ expo: number | string, gate: string, url?: number | string, hours?: number | string, base?: string, remote?: boolean, persist?: string }} opts
 * @returns {Promise<{ id: string, key: string, link: string, expiresAt: number }>}
 */
export async function addGateKey({ expo, gate, url, hours = 24, base = 'http://127.0.0.1:8787', remote = false, env, persist }) {
  const expoId = Number(expo);
  if (!Number.isSafeInteger(expoId) || expoId <= 0) throw new Error('--expo must be an expo id, e.g. --expo 1308');
  const name = String(gate ?? '').trim();
  if (name.length < 1 || [...name].length > 40 || /[\u0000-\u001f\u007f]/.test(name)) throw new Error('--gate must be 1 to 40 characters, e.g. --gate "Gate 3"');
  const urlsId = url === undefined || url === null || url === '' ? null : Number(url);
  if (urlsId !== null && !(Number.isSafeInteger(urlsId) && urlsId > 0)) throw new Error('--url must be a customer url id (the fId of the show’s links), e.g. --url 21308');
  const h = Number(hours);
  if (!(h > 0 && h <= 24 * 366)) throw new Error('--hours must be more than 0 and at most a year');
  const now = Date.now();
  const expiresAt = now + Math.round(h * 3600_000);
  const { key, id, hash } = newGateKey();
  await execute(
    `INSERT INTO gate_keys (id, hash, expo_id, gate, created_at, expires_at, revoked_at, urls_id) VALUES (${sqlText(id)}, ${sqlText(hash)}, ${expoId}, ${sqlText(name)}, ${now}, ${expiresAt}, NULL, ${urlsId ?? 'NULL'})`,
    { remote, env, persist },
  );
  return { id, key, expiresAt, link: `${String(base).replace(/\/+$/, '')}/gate/${encodeExpo(expoId)}?key=${key}` };
}

/**
 * The keys of an expo, newest first (no key, no hash).
 * @param {{ expo: number | string, remote?: boolean, persist?: string }} opts
 */
export async function listGateKeys({ expo, remote = false, env, persist }) {
  const expoId = Number(expo);
  if (!Number.isSafeInteger(expoId) || expoId <= 0) throw new Error('--expo must be an expo id');
  return execute(`SELECT id, gate, urls_id, created_at, expires_at, revoked_at FROM gate_keys WHERE expo_id = ${expoId} ORDER BY created_at DESC`, { remote, env, persist });
}

/**
 * Revokes a key by id: it stops working within seconds (src/lib/gate/keys.ts GATE_KEY_MEMO_MS).
 * @param {{ id: string, remote?: boolean, persist?: string }} opts
 */
export async function revokeGateKey({ id, remote = false, env, persist }) {
  if (!/^[0-9a-f]{10}$/.test(String(id ?? ''))) throw new Error('revoke takes a key id (10 hex characters, from `list`)');
  await execute(`UPDATE gate_keys SET revoked_at = ${Date.now()} WHERE id = ${sqlText(id)} AND revoked_at IS NULL`, { remote, env, persist });
}

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const opts = { _: [] };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--remote') opts.remote = true;
    else if (a.startsWith('--')) opts[a.slice(2)] = rest[++i];
    else opts._.push(a);
  }
  return { command, opts };
}

const when = (ms) => (ms === null || ms === undefined ? '' : new Date(Number(ms)).toISOString().replace('.000', ''));

async function main() {
  const { command, opts } = parseArgs(process.argv.slice(2));
  const common = { remote: opts.remote === true, env: opts.env, persist: opts.persist };
  if (command === 'add') {
    const made = await addGateKey({ expo: opts.expo, gate: opts.gate, url: opts.url, hours: opts.hours ?? 24, base: opts.base, ...common });
    console.log(`Gate key ${made.id} for expo ${opts.expo}, ${JSON.stringify(String(opts.gate).trim())}, valid until ${when(made.expiresAt)}.`);
    console.log('Staff link (shown once; it opens this gate until the key ends or is revoked):');
    console.log(`  ${made.link}`);
  } else if (command === 'list') {
    const rows = await listGateKeys({ expo: opts.expo, ...common });
    if (rows.length === 0) console.log(`No gate keys for expo ${opts.expo}.`);
    for (const r of rows) {
      const state = r.revoked_at ? `revoked ${when(r.revoked_at)}` : Number(r.expires_at) <= Date.now() ? 'expired' : 'valid';
      console.log(`${r.id}  ${JSON.stringify(r.gate)}${r.urls_id ? `  url ${r.urls_id}` : ''}  made ${when(r.created_at)}  until ${when(r.expires_at)}  ${state}`);
    }
  } else if (command === 'revoke') {
    const id = opts._[0];
    await revokeGateKey({ id, ...common });
    console.log(`Gate key ${id} revoked: it opens nothing within a few seconds.`);
  } else {
    console.error('usage: npm run gate -- add --expo 1308 --gate "Gate 3" [--url 21308] [--hours 24] [--base URL] [--remote --env NAME] | list --expo 1308 | revoke ID');
    process.exit(2);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
