#!/usr/bin/env node
// npm run dev: migrate the local D1 database, then Astro's dev server (workerd, hot reload).
// Local variables come from .dev.vars (written with local defaults when missing).
import { existsSync, writeFileSync } from 'node:fs';
import { run, toolEnv, workerVars } from './lib.mjs';

if (!existsSync('.dev.vars')) {
  writeFileSync('.dev.vars', Object.entries(workerVars()).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n') + '\n');
}
await run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local'], { env: { ...toolEnv, CI: 'true' } });
await run('npx', ['astro', 'dev', '--host', '127.0.0.1', '--port', process.env.PORT ?? '4321']);
