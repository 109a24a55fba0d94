#!/usr/bin/env node
// npm test: typecheck, lint, unit tests, tests inside workerd, then Playwright in Debian's
// Chromium against the built Worker on a free port. Stops at the first failing step.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { run, freePort, CHROMIUM } from './lib.mjs';



function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    console.log('Installing Debian\'s chromium for the browser tests (apt-get)…');
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk', { stdio: 'inherit' });
    return;
  }
  console.error(`The browser tests need Debian's Chromium at ${CHROMIUM}. Install it with:\n\n  sudo apt-get install -y chromium fonts-noto-cjk\n`);
  process.exit(1);
}

const steps = [
  ['typecheck', () => run('npm', ['run', '-s', 'typecheck'])],
  ['lint', () => run('npm', ['run', '-s', 'lint'])],
  ['unit', () => run('npx', ['vitest', 'run', '--project', 'unit'])],
  ['edge', () => run('npx', ['vitest', 'run', '--project', 'edge'])],
  ['build', () => run('npx', ['astro', 'build'])],
  [
    'e2e',
    async () => {
      ensureChromium();
      const port = await freePort();
      await run('npx', ['playwright', 'test'], { env: { E2E_PORT: String(port) } });
    },
  ],
];

const only = process.argv.slice(2);
for (const [name, step] of steps) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n▶ ${name}`);
  await step();
}
console.log('\nAll test steps passed.');
