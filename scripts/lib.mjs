// Small helpers shared by the npm scripts (start, dev, test, bench). Node built-ins only.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Environment for every tool we run: no telemetry, no metrics (STACK.md). */
export const toolEnv = {
  ...process.env,
  ASTRO_TELEMETRY_DISABLED: '1',
  WRANGLER_SEND_METRICS: 'false',
};

/**
 * Runs a command through npx (so it uses the project's Node 22); resolves on exit 0, else throws.
 * `opts.quiet`: its output is kept and printed only when it fails. `opts.capture(text)`: its
 * output is kept and handed over whole when it ends, success or not (steps run side by side).
 */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const keep = opts.quiet || opts.capture;
    const child = spawn(cmd, args, {
      stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...toolEnv, ...(keep ? { FORCE_COLOR: '0', NO_COLOR: '1' } : {}), ...(opts.env ?? {}) },
      cwd: opts.cwd,
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      opts.capture?.(output);
      if (code === 0) return resolve();
      if (opts.quiet) process.stderr.write(output);
      reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`));
    });
  });
}

/**
 * The reference upstream's demo seed: functions/reference/seed/*.sql, in name order. It is not a
 * migration (`wrangler d1 migrations apply --remote` must not load demo contacts into
 * production); every file is idempotent, so it may run again on an existing database.
 */
export const SEED_DIR = 'functions/reference/seed';

/** The seed files, in the order they apply. */
export function seedFiles() {
  return readdirSync(SEED_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => join(SEED_DIR, f));
}

/**
 * Applies the schema migrations to the local D1 databases in `persistTo`: the reference upstream's
 * (`DB`, functions/reference/migrations) and the edge's own (`STAFF`, functions/staff/migrations:
 * staff gate keys, README "The gate").
 */
export async function migrateLocal(persistTo) {
  for (const db of ['DB', 'STAFF']) {
    await run('npx', ['wrangler', 'd1', 'migrations', 'apply', db, '--local', '--persist-to', persistTo], {
      env: { CI: 'true' }, // no prompt
    });
  }
}

/** Applies the demo seed to the local D1 database in `persistTo` (after migrateLocal); safe to repeat. */
export async function seedLocal(persistTo) {
  // One `wrangler d1 execute` for all the files, in order: each wrangler start costs seconds, and
  // every browser-test server and `npm start` pays them (the files are idempotent, so a file that
  // fails leaves nothing the next run cannot redo).
  const files = seedFiles();
  mkdirSync(persistTo, { recursive: true });
  const all = join(persistTo, 'seed-all.sql');
  writeFileSync(all, files.map((f) => `-- ${f}\n${readFileSync(f, 'utf8').trim()}\n`).join('\n'));
  try {
    await run('npx', ['wrangler', 'd1', 'execute', 'DB', '--local', '--persist-to', persistTo, '--file', all], {
      env: { CI: 'true' },
      quiet: true,
    });
  } finally {
    rmSync(all, { force: true });
  }
  console.log(`Seeded ${files.join(', ')} (local, ${persistTo})`);
}

/** A free TCP port on 127.0.0.1 (other programs may hold 8787: STACK.md). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Ports from `first` on that are free on 127.0.0.1: true when each of `count` consecutive
 * ports can be bound (and is released again).
 */
async function portsFree(first, count) {
  for (let port = first; port < first + count; port++) {
    const ok = await new Promise((resolve) => {
      const srv = createServer();
      srv.unref();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (!ok) return false;
  }
  return true;
}

/** The first of `count` consecutive free TCP ports on 127.0.0.1 (one per e2e server). */
export async function freePorts(count) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await freePort();
    if (first + count <= 65535 && (await portsFree(first, count))) return first;
  }
  throw new Error(`no ${count} consecutive free ports on 127.0.0.1`);
}

/**
 * Playwright workers of the browser specs (`E2E_WORKERS`, default 2: this machine class has
 * 2 cores). Each worker gets a server of its own ({@link e2eServer}).
 */
export function e2eWorkers() {
  const raw = process.env.E2E_WORKERS;
  if (raw === undefined || raw === '') return 2;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new Error(`E2E_WORKERS must be a whole number from 1 to 16, not ${raw}`);
  return n;
}

/**
 * The server of Playwright worker slot `slot` (its parallel index, 0 … E2E_WORKERS-1): port
 * E2E_PORT + slot (E2E_PORT defaults to 8790) and a database of its own
 * (`.wrangler/e2e-state-<port>`, emptied when it starts), so the browser specs of one worker
 * never see the codes, registrations or limits of another's.
 */
export function e2eServer(slot) {
  const port = Number(process.env.E2E_PORT ?? 8790) + slot;
  return { port, baseURL: `http://127.0.0.1:${port}`, persist: `.wrangler/e2e-state-${port}` };
}

/** Whether the built worker exists. */
export function isBuilt() {
  return existsSync('dist/server/wrangler.json');
}

/** The local `HEALTH_TOKEN` when the environment gives none (never a deployment's). */
export const LOCAL_HEALTH_TOKEN = 'local-dev-health-token-not-for-production';

/**
 * The Worker's variables for local runs: the environment wins, else local defaults.
 * The defaults are for a developer's machine only; README.md "Configuration" says what to set in production.
 */
export function workerVars() {
  return {
    UPSTREAM_URL: process.env.UPSTREAM_URL ?? '',
    UPSTREAM_TIMEOUT_MS: process.env.UPSTREAM_TIMEOUT_MS ?? '15000',
    SESSION_SECRET: process.env.SESSION_SECRET ?? 'local-dev-session-secret-not-for-production',
    BYPASS_CODE: process.env.BYPASS_CODE ?? '2468',
    // /healthz's details (docs/deploy.md "Health check"): a local token, so `npm start` can show them.
    HEALTH_TOKEN: process.env.HEALTH_TOKEN ?? LOCAL_HEALTH_TOKEN,
    DEV_OUTBOX: process.env.DEV_OUTBOX ?? '1',
    // The reference's HTTP face, for local clients of the legacy API (loopback only without REF_HTTP_SECRET).
    REF_HTTP: process.env.REF_HTTP ?? '1',
    ...(process.env.REF_HTTP_SECRET ? { REF_HTTP_SECRET: process.env.REF_HTTP_SECRET } : {}),
    ...(process.env.DELIVERY_WEBHOOK_URL ? { DELIVERY_WEBHOOK_URL: process.env.DELIVERY_WEBHOOK_URL } : {}),
    ...(process.env.OCR_URL ? { OCR_URL: process.env.OCR_URL } : {}),
    ...(process.env.REQUEST_LOG ? { REQUEST_LOG: process.env.REQUEST_LOG } : {}),
    ...(process.env.REF_SEND_INTERVAL_S ? { REF_SEND_INTERVAL_S: process.env.REF_SEND_INTERVAL_S } : {}),
    ...(process.env.REF_SENDS_PER_HOUR ? { REF_SENDS_PER_HOUR: process.env.REF_SENDS_PER_HOUR } : {}),
    // Tickets (README "Purchase"): the hold of an unpaid order, the payment simulator, its merchant key.
    ...(process.env.REF_ORDER_HOLD_S ? { REF_ORDER_HOLD_S: process.env.REF_ORDER_HOLD_S } : {}),
    ...(process.env.PAY_SIMULATOR ? { PAY_SIMULATOR: process.env.PAY_SIMULATOR } : {}),
    // Notifications need a merchant key: a local value unless one is given.
    REF_PAY_SECRET: process.env.REF_PAY_SECRET ?? 'local-dev-pay-secret-not-for-production',
    ...(process.env.REF_CASHIER_URL ? { REF_CASHIER_URL: process.env.REF_CASHIER_URL } : {}),
    // The share card (README "Choices where the spec is silent"): the reference's demo app id and the JS-SDK's URL.
    ...(process.env.REF_WX_APP_ID ? { REF_WX_APP_ID: process.env.REF_WX_APP_ID } : {}),
    ...(process.env.WX_JSSDK_URL ? { WX_JSSDK_URL: process.env.WX_JSSDK_URL } : {}),
    ...(process.env.REF_OPEN_ORDERS_PER_CONTACT ? { REF_OPEN_ORDERS_PER_CONTACT: process.env.REF_OPEN_ORDERS_PER_CONTACT } : {}),
    ...(process.env.REF_OPEN_ORDERS_PER_TICKET ? { REF_OPEN_ORDERS_PER_TICKET: process.env.REF_OPEN_ORDERS_PER_TICKET } : {}),
    // The challenge and the operator's alerts (README "Abuse limits"); TURNSTILE_SECRET is a secret (below).
    ...Object.fromEntries(
      ['TURNSTILE_SITE_KEY', 'TURNSTILE_VERIFY_URL', 'TURNSTILE_SCRIPT_URL', 'CHALLENGE_WAIT_S', 'TRUSTED_NETWORKS', 'ALERT_WEBHOOK_URL', 'EXHIBITOR_BYPASS']
        .filter((k) => process.env[k])
        .map((k) => [k, process.env[k]]),
    ),
    // Abuse limits (README "Security" > "Abuse limits"), the config cache's TTLs and the unknown-code cache's (README "Configuration"):
    // unset here means the production defaults.
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k, v]) => (k.startsWith('LIMIT_') || k.startsWith('CONFIG_CACHE_') || k === 'UNKNOWN_CODE_CACHE_TTL_S') && v),
    ),
  };
}

/** wrangler's `--var KEY:VALUE` arguments for `vars`. */
export function varArgs(vars) {
  return Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
}

/** The wallet secrets (README "Configuration"): without all of a wallet's, its button is not shown. */
export const WALLET_SECRETS = [
  // not a wallet key, but a secret handed over the same way
  'TURNSTILE_SECRET',
  'APPLE_PASS_TYPE_ID',
  'APPLE_TEAM_ID',
  'APPLE_PASS_CERT',
  'APPLE_PASS_KEY',
  'APPLE_WWDR_CERT',
  'GOOGLE_WALLET_ISSUER_ID',
  'GOOGLE_WALLET_SA_EMAIL',
  'GOOGLE_WALLET_SA_KEY',
];

/** The wallet secrets set in the environment (none by default: local runs show no wallet buttons). */
export function walletSecrets() {
  return Object.fromEntries(WALLET_SECRETS.filter((k) => process.env[k]).map((k) => [k, process.env[k]]));
}

/**
 * `--env-file` arguments that hand `secrets` to `wrangler dev` as secrets: written to
 * `{dir}/wallet-secrets.env` (mode 0600; multi-line PEMs as JSON-quoted dotenv values), so
 * keys stay out of the process list and out of wrangler's printed variables. None: no file (an
 * earlier run's is removed).
 */
export function secretFileArgs(secrets, dir) {
  // Absolute: wrangler resolves an env file against the config's folder (dist/server), not the cwd.
  const file = resolve(dir, 'wallet-secrets.env');
  if (Object.keys(secrets).length === 0) {
    rmSync(file, { force: true }); // no key left behind from an earlier run
    return [];
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, Object.entries(secrets).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n') + '\n', { mode: 0o600 });
  return ['--env-file', file];
}

/**
 * Every abuse limit raised far above what a local run sends (docs/limits.md): for the bench only,
 * whose load run is one contact from one address thousands of times. Tests run at the defaults.
 */
export const RAISED_LIMITS = {
  LIMIT_SENDS_PER_IP_MIN: '100000',
  LIMIT_SENDS_PER_IP_HOUR: '100000',
  LIMIT_SENDS_PER_IP56_HOUR: '100000',
  LIMIT_SENDS_PER_IP48_HOUR: '100000',
  LIMIT_SENDS_PER_CONTACT_HOUR: '100000',
  LIMIT_SENDS_PER_CONTACT_IP_HOUR: '100000',
  LIMIT_SENDS_PER_RANGE_HOUR: '100000',
  LIMIT_SENDS_PER_BROWSER_HOUR: '100000',
  LIMIT_SENDS_PER_AREA_HOUR: '100000',
  LIMIT_SENDS_PER_COUNTRY_HOUR: '100000',
  LIMIT_SENDS_PER_EXPO_HOUR: '100000',
  LIMIT_LOOKUPS_PER_IP_MIN: '100000',
  LIMIT_LOOKUPS_PER_IP56_MIN: '100000',
  LIMIT_LOOKUPS_PER_IP48_MIN: '100000',
  LIMIT_WRONG_CODES_PER_IP_HOUR: '100000',
  LIMIT_WRONG_CODES_PER_CONTACT_HOUR: '100000',
  LIMIT_BYPASS_LOOKUPS_PER_EMAIL_HOUR: '100000',
  LIMIT_SEAT_LOOKUPS_PER_IP_MIN: '100000',
  LIMIT_SEAT_LOOKUPS_PER_EXPO_MIN: '100000',
  LIMIT_REGISTERS_PER_CONTACT_HOUR: '100000',
  LIMIT_REGISTERS_PER_IP_HOUR: '100000',
  LIMIT_ORDERS_PER_CONTACT_HOUR: '100000',
  LIMIT_ORDERS_PER_IP_HOUR: '100000',
  LIMIT_DISCOUNT_TRIES_PER_CONTACT_HOUR: '100000',
  LIMIT_DISCOUNT_TRIES_PER_IP_HOUR: '100000',
  LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR: '100000',
  LIMIT_SHARE_SIGNATURES_PER_IP_MIN: '100000',
};

/**
 * The Chromium every tool here starts (Playwright, Lighthouse, screenshots): `CHROMIUM_PATH`
 * when set, else Debian's (STACK.md "Tests"; a test tool's own browser download fails here).
 */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM = process.env.CHROMIUM_PATH?.trim() || DEBIAN_CHROMIUM;
/** The flags every tool here starts Chromium with (STACK.md "Tests"). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
