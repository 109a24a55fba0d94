#!/usr/bin/env node
// npm test: typecheck, lint, unit tests, tests inside workerd, then Playwright in Debian's
// Chromium against the built Worker: E2E_WORKERS workers (default 2), each with a server of its
// own on free ports from E2E_PORT on (playwright.config.ts). Stops at the first failing step and
// prints how long each step took.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { run, freePorts, e2eWorkers, CHROMIUM } from './lib.mjs';



/**
 * What the browser tests need from Debian, each with a path that shows it is installed:
 * Chromium, and fonts so that screenshots of every language are readable (Chinese, and Thai,
 * which no other installed font covers: without fonts-thai-tlwg Thai pages are boxes).
 */
const BROWSER_PACKAGES = [
  ['chromium', CHROMIUM],
  ['fonts-noto-cjk', '/usr/share/fonts/opentype/noto'],
  ['fonts-thai-tlwg', '/usr/share/fonts/truetype/tlwg'],
];

function ensureChromium() {
  const missing = BROWSER_PACKAGES.filter(([, path]) => !existsSync(path)).map(([name]) => name);
  if (missing.length === 0) return;
  const all = BROWSER_PACKAGES.map(([name]) => name).join(' ');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    console.log(`Installing ${missing.join(', ')} for the browser tests (apt-get)…`);
    execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${all}`, { stdio: 'inherit' });
    return;
  }
  console.error(`The browser tests need Debian's Chromium at ${CHROMIUM} and fonts (missing: ${missing.join(', ')}). Install them with:\n\n  sudo apt-get install -y ${all}\n`);
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
