#!/usr/bin/env node
// npm run dev: migrate and seed the local D1 database, then Astro's dev server (workerd, hot reload).
// Local variables come from .dev.vars (written with local defaults when missing).
import { existsSync, writeFileSync } from 'node:fs';
import { run, workerVars, walletSecrets, migrateLocal, seedLocal } from './lib.mjs';

// The wallet secrets (APPLE_*, GOOGLE_WALLET_*) of the environment too, if any (README "Wallet passes").
if (!existsSync('.dev.vars')) {
  const vars = { ...workerVars(), ...walletSecrets() };
  writeFileSync('.dev.vars', Object.entries(vars).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n') + '\n', { mode: 0o600 });
}
// wrangler's default local state dir, which the dev server reads too.
await migrateLocal('.wrangler/state');
await seedLocal('.wrangler/state');
await run('npx', ['astro', 'dev', '--host', '127.0.0.1', '--port', process.env.PORT ?? '4321']);
