// The rehearsal's two servers, as `npm run bench` runs them (docs/bench.md "Two servers"): the
// organiser's API (the reference upstream, `npm start` on its own port and database, its payment
// simulator on its own origin through REF_CASHIER_URL) and the product (`npm start` with
// UPSTREAM_URL pointing at it), both with REQUEST_LOG=0 and a fresh database. Unlike the bench,
// the product keeps the default of every abuse limit: LIMIT_* variables of the environment are
// not handed to it unless asked (`--env-limits`), and RAISED_LIMITS is never used.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolEnv } from '../lib.mjs';
import { sleep } from './http.mjs';

// start.mjs migrates and seeds two local databases first: minutes on a busy shared machine.
const HEALTH_TIMEOUT_MS = 240_000;

/** The variables that change what the product's abuse limits do (README "Abuse limits"). */
export function isLimitVar(name) {
  return (
    name.startsWith('LIMIT_') ||
    [
      'TRUSTED_NETWORKS',
      'CHALLENGE_WAIT_S',
      'TURNSTILE_SITE_KEY',
      'TURNSTILE_SECRET',
      'TURNSTILE_VERIFY_URL',
      'EXHIBITOR_BYPASS',
      'LIMITS_LOCATION_HINT',
    ].includes(name)
  );
}

/** The limit variables set in this environment (name → value). */
export function limitOverrides() {
  return Object.fromEntries(Object.entries(process.env).filter(([k, v]) => isLimitVar(k) && v));
}

/** The running servers: stopped on exit, error or Ctrl-C. */
const servers = [];

/**
 * Starts `node scripts/start.mjs --no-build` on `port` with `persist` as its database and `env` on
 * top, its output in `{outDir}/{logName}`. `keepLimits` false: no limit variable of this
 * environment reaches it.
 */
export function startServer(port, { persist, env = {}, logName, outDir, keepLimits = false }) {
  mkdirSync(outDir, { recursive: true });
  const logPath = join(outDir, logName);
  const log = openSync(logPath, 'w');
  const base = Object.fromEntries(Object.entries(toolEnv).filter(([k]) => keepLimits || !isLimitVar(k)));
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    detached: true, // its own process group: process.kill(-pid) reaches wrangler and workerd too
    stdio: ['ignore', log, log],
    env: { ...base, PORT: String(port), PERSIST_DIR: persist, FRESH_DB: '1', REQUEST_LOG: '0', ...env },
  });
  const state = { child, logPath, exited: null, stopped: false, port };
  child.on('exit', (code, signal) => (state.exited = code ?? signal));
  servers.push(state);
  return state;
}

/** SIGTERM to every server's process group (sync: also the 'exit' handler's). */
export function stopServers() {
  for (const server of servers) {
    if (server.stopped) continue;
    server.stopped = true;
    try {
      process.kill(-server.child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
}

/** Kills one server's process group at once (one that did not start). */
export function killServer(state) {
  state.stopped = true;
  try {
    process.kill(-state.child.pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/** Stops the servers and waits: SIGTERM, up to 5 s, then SIGKILL whatever is left of each group. */
export async function stopServersAndWait() {
  stopServers();
  for (let i = 0; i < 50 && servers.some((s) => s.exited === null); i++) await sleep(100);
  await sleep(200);
  for (const server of servers) {
    try {
      process.kill(-server.child.pid, 'SIGKILL'); // workerd may outlive start.mjs
    } catch {
      /* the whole group is gone: the usual case */
    }
  }
}

process.on('exit', stopServers);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopServers();
    process.exit(130);
  });
}

/** Polls GET /api/health until it answers 200; throws (with the server's last log lines) after the time-out. */
export async function waitForHealth(base, state) {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (state.exited !== null) break; // start.mjs died (migration or wrangler error)
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(500);
  }
  let tail = '';
  try {
    tail = readFileSync(state.logPath, 'utf8').trim().split('\n').slice(-20).join('\n');
  } catch {
    /* no log */
  }
  const why =
    state.exited !== null ? `the server exited (${state.exited})` : `no answer in ${HEALTH_TIMEOUT_MS / 1000} s`;
  throw new Error(`${base}/api/health never answered 200: ${why}. Last lines of ${state.logPath}:\n${tail}`);
}
