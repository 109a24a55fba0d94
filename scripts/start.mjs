#!/usr/bin/env node
// npm start: build, create and migrate the local D1 database, load the demo seed, and serve the
// built Worker on workerd at http://127.0.0.1:${PORT:-8787}.
// Flags: --no-build (serve the existing build).
// Environment: PORT; INSPECTOR_PORT (default: a free one); DEMO_GATE=0 prints no demo gate link; PERSIST_DIR (the local state dir, default .wrangler/state); FRESH_DB=1 wipes it first;
// the wallet secrets (APPLE_*, GOOGLE_WALLET_*: README "Configuration") are handed over as secrets.
import { run, isBuilt, workerVars, varArgs, walletSecrets, secretFileArgs, migrateLocal, seedLocal, freePort, LOCAL_HEALTH_TOKEN } from './lib.mjs';
import { rmSync } from 'node:fs';
import { addGateKey } from './gate.mjs';

const port = process.env.PORT ?? '8787';
const persist = process.env.PERSIST_DIR ?? '.wrangler/state';
const skipBuild = process.argv.includes('--no-build');

if (!skipBuild || !isBuilt()) await run('npx', ['astro', 'build']);
if (process.env.FRESH_DB === '1') rmSync(persist, { recursive: true, force: true });
// The reference upstream's schema (migrations, functions/reference/migrations), then its demo seed
// (functions/reference/seed: not a migration, idempotent, so an existing state dir is fine).
await migrateLocal(persist);
await seedLocal(persist);

const base = `http://127.0.0.1:${port}`;
const vars = workerVars();
// A demo staff link for expo 1308's gate (README "The gate"): a new key each start, 24 hours, this
// local database only. Not when the Worker speaks to an organiser's API (its expo is not ours to open),
// nor with DEMO_GATE=0 (the browser specs' servers make their own keys).
const demoGate = vars.UPSTREAM_URL || process.env.DEMO_GATE === '0' ? null : await addGateKey({ expo: 1308, gate: 'Demo Gate', url: 21308, hours: 24, base, persist }).catch((e) => {
  console.error('No demo gate link:', e instanceof Error ? e.message : e);
  return null;
});
console.log(`
Expo Pass is starting on ${base}
  upstream: ${vars.UPSTREAM_URL || 'the embedded reference upstream on local D1'}
  demo pages:
    ${base}/IEAESearch/10542/MTMwOA/visitor      lookup, expo 1308 (IEAE), exhibitor url
    ${base}/IndonesianSearch/8811/MTEwOA/visitor lookup, expo 1108 (Indonesian, e-mail only)
    ${base}/JakartaSearch/21178/MTE3OA/visitor   lookup, expo 1178 (Jakarta, country picker)
    ${base}/21308/MTMwOA/visitor                 home, expo 1308
    ${base}/dev/outbox                           development outbox: the codes "sent"
    ${base}/healthz                              health check, {"ok":true} (docs/deploy.md "Health check and logs"); its details:
      curl -s -H "Authorization: Bearer ${vars.HEALTH_TOKEN === LOCAL_HEALTH_TOKEN ? LOCAL_HEALTH_TOKEN : '$HEALTH_TOKEN'}" ${base}/healthz
${demoGate ? `    ${demoGate.link}
                                                 the gate of expo 1308 ("Demo Gate", staff key valid 24 h; npm run gate -- add …)
` : ''}  demo contacts: functions/reference/SEED.md
`);
// The inspector on a port of its own, found here: two servers started at once (the bench's Worker
// and organiser, the browser tests' servers) would otherwise both take wrangler's default 9229 and
// the second fails with "Address already in use".
const inspectorPort = process.env.INSPECTOR_PORT ?? String(await freePort());
await run('npx', [
  'wrangler', 'dev',
  '--config', 'dist/server/wrangler.json',
  '--ip', '127.0.0.1',
  '--port', port,
  '--inspector-port', inspectorPort,
  '--persist-to', persist,
  '--show-interactive-dev-session=false',
  ...varArgs(vars),
  ...secretFileArgs(walletSecrets(), persist),
]);
