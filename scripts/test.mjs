#!/usr/bin/env node
// npm test: typecheck, lint, unit tests, tests inside workerd, then Playwright in Debian's
// Chromium against the built Worker: E2E_WORKERS workers (default 2), each with a server of its
// own on free ports from E2E_PORT on (playwright.config.ts). Stops after the first group with a
// failing step and prints how long each step took. The browser (CHROMIUM_PATH, else Debian's
// Chromium) and the fonts are checked first, before any step.
//
// Steps in one group run at the same time: the type check is one thread, so lint and the unit
// tests fit beside it on the second core; the build fits beside the workerd tests. A step of a
// group with more than one step prints its output when it ends (not interleaved).
import { existsSync } from 'node:fs';
import { execFileSync, execSync } from 'node:child_process';
import { run, freePorts, e2eWorkers, CHROMIUM, DEBIAN_CHROMIUM } from './lib.mjs';

/**
 * What the browser tests need from Debian, each with a path that shows it is installed:
 * Chromium (or the one `CHROMIUM_PATH` names), and fonts so that screenshots of every language
 * are readable (Chinese, and Thai, which no other installed font covers: without
 * fonts-thai-tlwg Thai pages are boxes).
 */
const FONT_PACKAGES = [
  ['fonts-noto-cjk', '/usr/share/fonts/opentype/noto'],
  ['fonts-thai-tlwg', '/usr/share/fonts/truetype/tlwg'],
];
const BROWSER_PACKAGES = [...(process.env.CHROMIUM_PATH ? [] : [['chromium', CHROMIUM]]), ...FONT_PACKAGES];

/** Stops the run with a message that says what to do. */
function stop(message) {
  console.error(`\n✘ ${message}\n`);
  process.exit(1);
}

/**
 * The browser tests' Chromium and fonts, checked before the first step (issue 24: a missing
 * browser used to surface only at the end of a long run). Missing Debian packages are installed
 * with apt when running as root, else the run stops with the one command to run; a
 * `CHROMIUM_PATH` that does not lead to a working browser stops it too.
 */
function ensureChromium() {
  if (process.env.CHROMIUM_PATH && !existsSync(CHROMIUM)) {
    stop(`CHROMIUM_PATH is ${CHROMIUM}, which does not exist. Point it at a Chromium binary, or unset it to use Debian's (${DEBIAN_CHROMIUM}).`);
  }
  const missing = BROWSER_PACKAGES.filter(([, path]) => !existsSync(path)).map(([name]) => name);
  if (missing.length > 0) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!isRoot || !existsSync('/usr/bin/apt-get')) {
      stop(`The browser tests need ${missing.join(', ')} (Chromium at ${CHROMIUM}, Chinese and Thai fonts). Install with:\n\n  sudo apt-get install -y ${missing.join(' ')}\n\nor set CHROMIUM_PATH to another Chromium.`);
    }
    console.log(`Installing ${missing.join(', ')} for the browser tests (apt-get)…`);
    execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`, { stdio: 'inherit' });
  }
  // It is there; does it start? (A broken install or a wrong binary fails here, not in Playwright.)
  try {
    const version = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    console.log(`Browser: ${version} (${CHROMIUM}); fonts: ${FONT_PACKAGES.map(([name]) => name).join(', ')}`);
  } catch (e) {
    stop(`${CHROMIUM} does not start (${e instanceof Error ? e.message.split('\n')[0] : e}). Reinstall it (sudo apt-get install --reinstall -y chromium) or set CHROMIUM_PATH to a working Chromium.`);
  }
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
      (o) => run('npx', ['vitest', 'run', '--project', 'unit'], o),
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
        // Chromium, the fonts and the tools were checked before the first step (below).
        // One free port per worker's server: E2E_PORT, E2E_PORT + 1, …
        const port = await freePorts(e2eWorkers());
        await run('npx', ['playwright', 'test'], { ...o, env: { E2E_PORT: String(port) } });
      },
    ],
  ],
];

const only = process.argv.slice(2);
// What the browser and wallet tests need, before the long steps run (issue 24).
if (!only.length || only.includes('e2e')) ensureChromium();
if (!only.length || only.includes('unit') || only.includes('e2e')) ensureTools();
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
        const ms = performance.now() - start;
        times.push([name, ms]);
        // Each layer's time as it ends, not only in the summary (issue 32).
        console.log(`\n⏱ ${name} took ${seconds(ms)}`);
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
