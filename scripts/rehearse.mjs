#!/usr/bin/env node
// npm run rehearse: a show-morning rehearsal (issue 29). Builds (unless --no-build), starts the
// product and, on a second server, the organiser's API (the reference upstream), as
// `npm run bench` does (scripts/rehearse/servers.mjs), with a fresh database each and the default
// of every abuse limit. Then replays a compressed show morning: simulated phones, each with its
// own contact, cookie jar and client address (`CF-Connecting-IP`) from a realistic mix (one venue
// Wi-Fi address for a third of them and more, two carrier NATs, IPv6 /64s of one /48), looking up
// their credential, list or registration form, some registering or buying a ticket, staff scanning
// credentials at four gates; and at the same time five attacks from other addresses (SMS pumping,
// a victim's lockout, code guessing, ticket hoarding, harvesting the exhibitor bypass). Prints per
// kind of actor what it reached, the refusals and challenges real visitors were shown, the time
// to the credential, and what the attackers got; writes rehearsal/results.json (gitignored).
// It measures; it does not judge (docs/rehearsal.md says how to read it). Exit 0 unless a server
// never starts.
//
// Flags: --visitors N (default 500), --seed S (default 29: the same crowd, contacts and plans),
// --morning S (seconds over which the visitors arrive, default 120), --no-build (the existing
// dist/), --no-attacks (the visitors alone), --env-limits (hand the LIMIT_*, TRUSTED_NETWORKS,
// CHALLENGE_WAIT_S, TURNSTILE_* and EXHIBITOR_BYPASS variables of this environment to the product;
// by default none is, so the run shows the defaults).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort, isBuilt, run } from './lib.mjs';
import { addGateKey, execute } from './gate.mjs';
import { Phone, sleep, Timings } from './rehearse/http.mjs';
import { ADDRESSES, preRegistrationSql, rng, VICTIM, visitorsFor } from './rehearse/population.mjs';
import { killServer, limitOverrides, startServer, stopServersAndWait, waitForHealth } from './rehearse/servers.mjs';
import { getPage } from './rehearse/steps.mjs';
import { Gates, newRecord, runVisitor } from './rehearse/visitor.mjs';
import { bypassHarvest, codeGuessing, hoarding, smsPumping, victimLockout } from './rehearse/attacks.mjs';
import { buildResults, printReport, readLimits } from './rehearse/report.mjs';

const OUT_DIR = 'rehearsal';
const PERSIST_DIR = '.wrangler/rehearsal-state';
const UPSTREAM_PERSIST_DIR = '.wrangler/rehearsal-upstream-state';
const GATE_NAMES = ['Gate 1 North', 'Gate 2 North', 'Gate 3 South', 'Gate 4 East'];
/** After the morning, how long the last visitors get to finish (their waits are bounded; this is a backstop). */
const DRAIN_MS = 240_000;

const args = process.argv.slice(2);
/** The value of `--name <v>` or `--name=<v>`, or undefined. */
function flagValue(name) {
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return args[i].includes('=') ? args[i].slice(name.length + 1) : args[i + 1];
}
function intFlag(name, fallback, min, max) {
  const raw = flagValue(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`rehearse: ${name} must be a whole number from ${min} to ${max}, not ${raw}`);
    process.exit(2);
  }
  return n;
}
const VISITORS = intFlag('--visitors', 500, 15, 5000);
const SEED = intFlag('--seed', 29, 0, 2 ** 31 - 1);
const MORNING_S = intFlag('--morning', 120, 20, 3600);
const skipBuild = args.includes('--no-build');
const noAttacks = args.includes('--no-attacks');
const envLimits = args.includes('--env-limits');

const git = (...a) => {
  try {
    return execFileSync('git', a, { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};

const startedAt = Date.now();
const loadStart = loadavg().map((n) => Math.round(n * 100) / 100);
const overrides = envLimits ? limitOverrides() : {};
if (!envLimits && Object.keys(limitOverrides()).length > 0) {
  console.log(
    `rehearse: ignoring ${Object.keys(limitOverrides()).join(', ')} from the environment (the run shows the defaults; --env-limits hands them over)`,
  );
}

if (!skipBuild || !isBuilt()) await run('npx', ['astro', 'build']);

// The organiser's API first: the product is pointed at it; its payment simulator on its own origin.
const upstreamPort = await freePort();
const upstream = `http://127.0.0.1:${upstreamPort}`;
const productPort = await freePort();
const product = `http://127.0.0.1:${productPort}`;
console.log(
  `\nStarting the organiser's API on ${upstream} and the product on ${product} (fresh databases; logs in ${OUT_DIR}/)…`,
);
// One after the other: two `wrangler dev` starting at once can pick the same port for a socket of
// their own ("Address already in use"); a server that dies while starting is started once more.
const serverOptions = {
  upstream: {
    persist: UPSTREAM_PERSIST_DIR,
    outDir: OUT_DIR,
    logName: 'upstream.log',
    env: { DEMO_GATE: '0', REF_CASHIER_URL: `${upstream}/dev/pay` },
  },
  product: {
    persist: PERSIST_DIR,
    outDir: OUT_DIR,
    logName: 'server.log',
    keepLimits: envLimits,
    env: { UPSTREAM_URL: upstream, DEMO_GATE: '0' },
  },
};
try {
  for (const [name, port, base] of [
    ['upstream', upstreamPort, upstream],
    ['product', productPort, product],
  ]) {
    const first = startServer(port, serverOptions[name]);
    try {
      await waitForHealth(base, first);
    } catch (e) {
      killServer(first);
      console.log(
        `rehearse: the ${name === 'upstream' ? "organiser's API" : 'product'} did not start; once more. (${String(e.message).split('\n')[0]})`,
      );
      await sleep(2000);
      await waitForHealth(base, startServer(port, serverOptions[name]));
    }
  }
} catch (e) {
  console.error(`\nrehearse: ${e.message}`);
  await stopServersAndWait();
  process.exit(1);
}
console.log(`Both servers are up (${Math.round((Date.now() - startedAt) / 1000)} s).`);

// The crowd, and what the organiser knew before the morning: the pre-registered visitors' registrations.
const visitors = visitorsFor({ n: VISITORS, seed: SEED, morningS: MORNING_S });
mkdirSync(OUT_DIR, { recursive: true });
const preFile = join(OUT_DIR, 'preregistrations.sql');
writeFileSync(preFile, preRegistrationSql(visitors));
process.stdout.write(
  `Seeding ${visitors.filter((v) => v.preCode).length} pre-registrations on the organiser's side and ${GATE_NAMES.length} staff keys for expo 1308… `,
);
/** A wrangler step, tried once more after a moment when it fails (a local database busy with another writer). */
async function twice(what, fn) {
  try {
    return await fn();
  } catch (e) {
    console.log(`\nrehearse: ${what} failed (${String(e?.message ?? e).slice(0, 160)}); once more…`);
    await sleep(3000);
    return fn();
  }
}
let gateKeys = [];
try {
  // the organiser's database and the product's staff keys side by side; the keys one after the
  // other (several writers at once on one local database can fail)
  [, gateKeys] = await Promise.all([
    twice('seeding the pre-registrations', () =>
      run(
        'npx',
        ['wrangler', 'd1', 'execute', 'DB', '--local', '--persist-to', UPSTREAM_PERSIST_DIR, '--file', preFile],
        {
          env: { CI: 'true' },
          quiet: true,
        },
      ),
    ),
    (async () => {
      const keys = [];
      for (const gate of GATE_NAMES) {
        const k = await twice(`the staff key of ${gate}`, () =>
          addGateKey({ expo: 1308, gate, hours: 4, base: product, persist: PERSIST_DIR }),
        );
        keys.push({ name: gate, link: k.link });
      }
      return keys;
    })(),
  ]);
} catch (e) {
  console.error(`\nrehearse: the morning could not be set up: ${e?.message ?? e}`);
  await stopServersAndWait();
  process.exit(1);
}
console.log('done.');

// A site in service is warm: one page view of each kind before the doors open (not measured).
const warm = new Phone({ ip: '192.0.2.1', product });
for (const path of [
  '/IEAESearch/21308/MTMwOA/visitor',
  '/ticket/21216/MTIxNg/visitor',
  '/IEAESearch/10542/MTMwOA/visitor',
])
  await getPage(warm, path);

const ctx = {
  product,
  upstream,
  seed: SEED,
  t0: Date.now() + 1000,
  morningMs: MORNING_S * 1000,
  scanAtGate: null,
  timings: new Timings(),
};
const gates = new Gates(gateKeys, ctx, ADDRESSES.venue);
await gates.open();
ctx.scanAtGate = (v, rec, code) => gates.scan(v, rec, code);
const gatesRunning = gates.run();

console.log(
  `\nDoors open: ${visitors.length} visitors over ${MORNING_S} s${noAttacks ? '' : ', five attacks at the same time'}.`,
);
const records = [];
let started = 0;
const visitorRuns = visitors.map(async (v) => {
  await sleep(ctx.t0 + v.arrivalS * 1000 - Date.now());
  started++;
  const rec = await runVisitor(v, ctx);
  records.push(rec);
  return rec;
});

const attacks = {};
const attack = async (name, fn) => {
  try {
    attacks[name] = await fn();
  } catch (e) {
    attacks[name] = { error: String(e?.stack ?? e).slice(0, 400) };
  }
};
const r = rng(SEED * 17 + 3);
const lateComers = r
  .shuffle(visitors.filter((v) => v.kind === 'pre-registered' && v.arrivalS > MORNING_S * 0.55))
  .slice(0, 12);
const attackRuns = noAttacks
  ? []
  : [
      attack('pumping', () => smsPumping(ctx)),
      attack('lockout', () =>
        victimLockout(ctx, {
          victim: VICTIM,
          victimAtS: MORNING_S * 0.45,
          runVictim: () =>
            runVisitor(
              {
                id: 900_001,
                kind: 'victim',
                net: 'home',
                ip: ADDRESSES.victimHome,
                contact: { ...VICTIM, expect: 'credential' },
                mode: 'json',
                arrivalS: MORNING_S * 0.45,
                wrongFirst: false,
                registers: false,
                refreshes: 0,
                think: { contactS: 3, codeS: 5, formS: 20, retryS: 2 },
              },
              ctx,
            ),
        }),
      ),
      attack('guessing', async () => {
        await sleep(ctx.t0 + MORNING_S * 1000 * 0.05 - Date.now());
        return codeGuessing(ctx, { targets: lateComers, endS: MORNING_S * 0.5 });
      }),
      attack('hoarding', () => hoarding(ctx)),
      attack('bypass', () => bypassHarvest(ctx)),
    ];

// a line every 15 s while the morning runs
const progress = setInterval(() => {
  const done = records.length;
  const reached = records.filter((x) => x.reached).length;
  const refusals = records.reduce((s, x) => s + x.refusals.length, 0);
  const challenges = records.reduce((s, x) => s + x.challenges.length, 0);
  console.log(
    `  ${Math.round((Date.now() - ctx.t0) / 1000)} s: ${started} visitors came, ${done} done (${reached} reached a page, ${refusals} refusals and ${challenges} challenges shown so far)`,
  );
}, 15_000);

const drained = await Promise.race([
  Promise.all([...visitorRuns, ...attackRuns]).then(() => true),
  sleep(ctx.morningMs + DRAIN_MS + Math.max(0, ctx.t0 - Date.now())).then(() => false),
]);
clearInterval(progress);
gates.close();
await Promise.race([gatesRunning, sleep(30_000)]);
const morningWallS = Math.round((Date.now() - ctx.t0) / 1000);
if (!drained)
  console.log(
    `rehearse: ${visitors.length - records.length} visitors still running ${DRAIN_MS / 1000} s after the morning: reported as unfinished.`,
  );
const finished = new Set(records.map((x) => x.id));
for (const v of visitors)
  if (!finished.has(v.id)) records.push({ ...newRecord(v), gaveUp: 'still running at the end of the run' });

// What the organiser's side holds: SMS sent to +44, codes sent to the victim, tickets the hoarder holds.
let truth = null;
try {
  const rows = await execute(
    [
      `SELECT 'pump' AS what, expo_id AS k, count(*) AS n FROM outbox WHERE to_contact LIKE '+44%' GROUP BY expo_id`,
      `SELECT 'victim', expo_id, count(*) FROM outbox WHERE to_contact = '${VICTIM.areaCode}${VICTIM.phone}' GROUP BY expo_id`,
      `SELECT 'held', ticket_id, sum(quantity) FROM orders WHERE contact LIKE '%@hoard-mail.test' AND status = 0 AND expire_ms > ${Date.now()} GROUP BY ticket_id`,
      `SELECT 'sent', channel, count(*) FROM outbox GROUP BY channel`,
    ].join(' UNION ALL '),
    { persist: UPSTREAM_PERSIST_DIR, db: 'DB' },
  );
  const pick = (what) => Object.fromEntries(rows.filter((x) => x.what === what).map((x) => [x.k, x.n]));
  const pump = pick('pump');
  truth = {
    pumpSms: Object.values(pump).reduce((s, n) => s + n, 0),
    pumpSmsByExpo: pump,
    victimSms: pick('victim'),
    held: pick('held'),
    outbox: pick('sent'),
  };
} catch (e) {
  truth = { error: String(e?.message ?? e).slice(0, 300) };
}
await stopServersAndWait();

const limits = readLimits(overrides);
const results = buildResults({
  meta: {
    date: new Date(startedAt).toISOString(),
    commit: git('rev-parse', '--short', 'HEAD'),
    dirty: (git('status', '--porcelain', '--untracked-files=no') ?? '') !== '',
    seed: SEED,
    visitorsPlanned: VISITORS,
    morningS: MORNING_S,
    morningWallS,
    durationS: Math.round((Date.now() - startedAt) / 1000),
    attacks: !noAttacks,
    limitOverrides: overrides,
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model ?? null,
      loadStart,
      loadEnd: loadavg().map((n) => Math.round(n * 100) / 100),
      node: process.version,
    },
    outFile: join(OUT_DIR, 'results.json'),
    addresses: ADDRESSES,
  },
  records: records.filter((x) => x.kind !== 'victim'),
  gates,
  attacks,
  truth,
  limits,
  replyTimes: ctx.timings.rows(),
});
results.organiser = truth;
results.records = records.sort((a, b) => a.id - b.id);
writeFileSync(join(OUT_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(printReport(results));
process.exit(0);
