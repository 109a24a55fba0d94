#!/usr/bin/env node
// npm test: typecheck, lint, unit tests, tests inside workerd, then Playwright in Debian's
// Chromium against the built Worker: E2E_WORKERS workers (default 2), each with a server of its
// own on free ports from E2E_PORT on (playwright.config.ts). Stops after the first group with a
// failing step and prints how long each step took.
//
// Steps in one group run at the same time: the type check is one thread, so lint and the unit
// tests fit beside it on the second core; the build fits beside the workerd tests. A step of a
// group with more than one step prints its output when it ends (not interleaved).
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
  [
    ['typecheck', (o) => run('npm', ['run', '-s', 'typecheck'], o)],
    ['lint', (o) => run('npm', ['run', '-s', 'lint'], o)],
    [
      'unit',
      (o) => {
        ensureTools();
        return run('npx', ['vitest', 'run', '--project', 'unit'], o);
      },
    ],
  ],
  [
    ['edge', (o) => run('npx', ['vitest', 'run', '--project', 'edge'], o)],
    ['build', (o) => run('npx', ['astro', 'build'], o)],
  ],
  [
    [
      'e2e',
      async (o) => {
        ensureChromium();
        ensureTools();
        // One free port per worker's server: E2E_PORT, E2E_PORT + 1, …
        const port = await freePorts(e2eWorkers());
        await run('npx', ['playwright', 'test'], { ...o, env: { E2E_PORT: String(port) } });
      },
    ],
  ],
];

const only = process.argv.slice(2);
const times = [];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const report = () => console.log(times.map(([name, ms]) => `  ${name.padEnd(10)} ${seconds(ms)}`).join('\n'));
const wallStart = performance.now();
for (const group of steps) {
  const chosen = group.filter(([name]) => !only.length || only.includes(name));
  if (!chosen.length) continue;
  const together = chosen.length > 1;
  console.log(`\n▶ ${chosen.map(([name]) => name).join(' + ')}`);
  const outcomes = await Promise.allSettled(
    chosen.map(async ([name, step]) => {
      const start = performance.now();
      // Alone: the step's output streams. Together: each step's output is kept and printed whole when it ends.
      const opts = together ? { capture: (text) => console.log(`\n── ${name} ──\n${text.trimEnd()}`) } : {};
      try {
        await step(opts);
      } finally {
        times.push([name, performance.now() - start]);
      }
    }),
  );
  const failed = chosen.filter((_, k) => outcomes[k].status === 'rejected').map(([name]) => name);
  if (failed.length) {
    console.error(`\n✘ ${failed.join(', ')} failed; the steps took:`);
    report();
    process.exit(1);
  }
}
console.log('\nAll test steps passed:');
report();
console.log(`  ${'total'.padEnd(10)} ${seconds(performance.now() - wallStart)} (wall clock; steps of a group overlap)`);
