/**
 * A second built Worker for a spec that needs other settings than the suite's servers (a
 * counting upstream, the wallet secrets): `npm start --no-build` on its own port and database,
 * in its own process group so that one signal stops start.mjs, wrangler and workerd together.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface SecondWorker {
  child: ChildProcess;
  /** http://127.0.0.1:port */
  site: string;
}

/**
 * Starts it with `env` on top of the test's environment and waits until /api/health answers
 * (`waitMs`, 90 s by default: start.mjs migrates two local databases first, slow on a busy
 * 2-core machine). No demo gate key (`DEMO_GATE=0`, as for the suite's servers): one wrangler
 * call less.
 */
export async function startSecondWorker(
  port: number,
  persist: string,
  env: Record<string, string>,
  waitMs = 90_000,
): Promise<SecondWorker> {
  const child = spawn('node', ['scripts/start.mjs', '--no-build'], {
    env: { ...process.env, PORT: String(port), PERSIST_DIR: persist, FRESH_DB: '1', DEMO_GATE: '0', ...env },
    stdio: 'ignore',
    detached: true,
  });
  const site = `http://127.0.0.1:${port}`;
  for (let i = 0; i < waitMs / 250; i++) {
    if (await fetch(`${site}/api/health`).then((r) => r.ok, () => false)) return { child, site };
    await new Promise((r) => setTimeout(r, 250));
  }
  stopSecondWorker(child);
  throw new Error(`the second Worker on ${site} did not start`);
}

/** Stops it (the whole process group); waits up to 5 s for it to exit. */
export async function stopSecondWorker(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
}
