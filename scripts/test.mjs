#!/usr/bin/env node
// npm test: typecheck, lint, unit tests, tests inside workerd, then Playwright in Debian's
// Chromium against the built Worker: E2E_WORKERS workers (default 2), each with a server of its
// own on free ports from E2E_PORT on (playwright.config.ts). Stops at the first failing step and
// prints how long each step took.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { run, freePorts, e2eWorkers, CHROMIUM } from './lib.mjs';



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

/**
 * The wallet tests (issue 13: tests/wallet-certs.ts, tests/e2e/wallet.spec.ts) make test
 * certificates with `openssl` and open the pass with `unzip`: Debian's packages, installed like
 * Chromium when missing.
 */
function ensureTools() {
  const missing = ['openssl', 'unzip'].filter((tool) => !existsSync(`/usr/bin/${tool}`));
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`Installing ${missing.join(' and ')} for the wallet tests (apt-get)…`);
    execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`, { stdio: 'inherit' });
    return;
  }
  console.error(`The wallet tests need ${missing.join(' and ')}. Install with:\n\n  sudo apt-get install -y ${missing.join(' ')}\n`);
  process.exit(1);
}

const steps = [
  ['typecheck', () => run('npm', ['run', '-s', 'typecheck'])],
  ['lint', () => run('npm', ['run', '-s', 'lint'])],
  [
    'unit',
    () => {
      ensureTools();
      return run('npx', ['vitest', 'run', '--project', 'unit']);
    },
  ],
  ['edge', () => run('npx', ['vitest', 'run', '--project', 'edge'])],
  ['build', () => run('npx', ['astro', 'build'])],
  [
    'e2e',
    async () => {
      ensureChromium();
      ensureTools();
      // One free port per worker's server: E2E_PORT, E2E_PORT + 1, …
      const port = await freePorts(e2eWorkers());
      await run('npx', ['playwright', 'test'], { env: { E2E_PORT: String(port) } });
    },
  ],
];

const only = process.argv.slice(2);
const times = [];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const report = () => console.log(times.map(([name, ms]) => `  ${name.padEnd(10)} ${seconds(ms)}`).join('\n'));
for (const [name, step] of steps) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n▶ ${name}`);
  const start = performance.now();
  try {
    await step();
  } catch (err) {
    times.push([name, performance.now() - start]);
    console.error(`\n✘ ${name} failed; the steps took:`);
    report();
    throw err;
  }
  times.push([name, performance.now() - start]);
}
console.log('\nAll test steps passed:');
report();
console.log(`  ${'total'.padEnd(10)} ${seconds(times.reduce((sum, [, ms]) => sum + ms, 0))}`);
