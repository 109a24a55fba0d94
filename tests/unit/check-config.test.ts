/**
 * scripts/check-config.mjs, the first step of `npm run check` (issue 9 §5): a config that turns
 * on a development face (DEV_OUTBOX, REF_HTTP) or holds a secret in vars is refused; so is one
 * that would let the platform log every request's URL (issue 30: invocation logs, traces, Logpush).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkConfig, isOn, logProblems, parseToml, readConfig } from '../../scripts/check-config.mjs';

const GOOD = `
name = "expo-pass"
main = "./functions/worker.ts"
compatibility_date = "2026-10-19"
compatibility_flags = ["nodejs_compat"]

[observability]
enabled = true

[observability.logs]
invocation_logs = false

[vars]
UPSTREAM_URL = ""
DEV_OUTBOX = "0"

[env.production.vars]
UPSTREAM_URL = "https://api.organiser.example"

[[d1_databases]]
binding = "DB"
database_name = "expo-pass-reference"
database_id = "00000000-0000-0000-0000-000000000000"
migrations_dir = "functions/reference/migrations"
`;

const BAD = `
name = "expo-pass"

[vars]
UPSTREAM_URL = ""
DEV_OUTBOX = "1" # handy while testing

[env.staging]
vars = { REF_HTTP = 1, REF_HTTP_SECRET = "hunter2hunter2" }
`;

const dir = mkdtempSync(join(tmpdir(), 'check-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the script on `text` as a file; its exit status and output. */
function cli(name: string, text: string): { status: number; out: string } {
  const file = join(dir, name);
  writeFileSync(file, text);
  try {
    const out = execFileSync(process.execPath, ['scripts/check-config.mjs', file], { encoding: 'utf8', stdio: 'pipe' });
    return { status: 0, out };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { status: err.status, out: `${err.stdout}${err.stderr}` };
  }
}

describe('npm run check refuses a config with a development face on', () => {
  it('a good wrangler.toml passes (exit 0)', () => {
    expect(cli('good.toml', GOOD)).toMatchObject({ status: 0 });
  });

  it('a bad one fails (exit 1) and names every problem', () => {
    const { status, out } = cli('bad.toml', BAD);
    expect(status).toBe(1);
    expect(out).toContain('[vars] DEV_OUTBOX = "1"');
    expect(out).toContain('[env.staging.vars] REF_HTTP = 1');
    expect(out).toContain('[env.staging.vars] REF_HTTP_SECRET is a secret');
  });

  it('a file it cannot read fails (exit 2), it does not pass', () => {
    expect(cli('broken.toml', '[vars]\nDEV_OUTBOX = \n').status).toBe(2);
  });

  it("the project's own wrangler.toml passes", () => {
    expect(checkConfig(readConfig('wrangler.toml'))).toEqual([]);
    expect(logProblems(readConfig('wrangler.toml'))).toEqual([]);
  });

  it('a config that leaves the invocation log on fails (exit 1) and says why', () => {
    const { status, out } = cli('logs.toml', GOOD.replace('invocation_logs = false', 'invocation_logs = true'));
    expect(status).toBe(1);
    expect(out).toContain('[observability.logs] invocation_logs is not false');
  });

  it('reads the built wrangler.json too', () => {
    const file = join(dir, 'wrangler.json');
    writeFileSync(
      file,
      JSON.stringify({ vars: { DEV_OUTBOX: '1' }, env: { preview: { vars: { REF_HTTP: 'true' } } } }),
    );
    expect(checkConfig(readConfig(file))).toHaveLength(2);
  });
});

describe('checkConfig', () => {
  it('any way of turning a face on counts; off values and absence do not', () => {
    for (const on of ['1', 1, true, 'true', 'yes', ' 1 ', 'on']) expect(isOn(on), String(on)).toBe(true);
    for (const off of [undefined, null, '', '0', 0, false, 'false', 'off', 'no'])
      expect(isOn(off), String(off)).toBe(false);
  });

  it('looks at [vars] and every [env.*.vars], dotted keys and inline tables alike', () => {
    const config = parseToml(`
[env.a]
vars.DEV_OUTBOX = "1"
[env.b.vars]
REF_HTTP = "1"
[env.c]
vars = { DEV_OUTBOX = "0" }
`);
    expect(checkConfig(config)).toEqual([
      expect.stringContaining('[env.a.vars] DEV_OUTBOX'),
      expect.stringContaining('[env.b.vars] REF_HTTP'),
    ]);
  });

  it('secrets in vars are refused, on or off', () => {
    expect(checkConfig({ vars: { SESSION_SECRET: 'x', BYPASS_CODE: '2468' } })).toEqual([
      expect.stringContaining('SESSION_SECRET is a secret'),
      expect.stringContaining('BYPASS_CODE is a secret'),
    ]);
  });

  it('no vars at all is fine', () => {
    expect(checkConfig({ name: 'x' })).toEqual([]);
  });
});

describe('logProblems (issue 30: no platform log of the URLs)', () => {
  it('the top level declares observability, with the invocation log off whenever Workers Logs is on', () => {
    expect(logProblems({ name: 'x' })).toEqual([expect.stringContaining('[observability] is not declared')]);
    expect(logProblems({ observability: { enabled: true } })).toEqual([expect.stringContaining('invocation_logs is not false')]);
    expect(logProblems({ observability: { enabled: true, logs: { enabled: true, invocation_logs: true } } })).toHaveLength(1);
    expect(logProblems({ observability: { enabled: false, logs: { enabled: true } } })).toHaveLength(1);
    expect(logProblems({ observability: { enabled: true, logs: { invocation_logs: false } } })).toEqual([]);
    expect(logProblems({ observability: { enabled: false } })).toEqual([]);
  });

  it('traces and Logpush stay off', () => {
    const off = { enabled: true, logs: { invocation_logs: false } };
    expect(logProblems({ observability: { ...off, traces: { enabled: true } } })).toEqual([expect.stringContaining('[observability.traces] enabled = true')]);
    expect(logProblems({ observability: off, logpush: true })).toEqual([expect.stringContaining('logpush = true')]);
    expect(logProblems({ observability: { ...off, traces: { enabled: false } }, logpush: false })).toEqual([]);
  });

  it('an environment that declares its own observability (it replaces the top level\'s) is held to the same; one that does not inherits', () => {
    const off = { enabled: true, logs: { invocation_logs: false } };
    expect(logProblems({ observability: off, env: { staging: {} } })).toEqual([]);
    expect(logProblems({ observability: off, env: { staging: { observability: { enabled: true } }, other: { logpush: true } } })).toEqual([
      expect.stringContaining('[env.staging.observability.logs] invocation_logs is not false'),
      expect.stringContaining('[env.other] logpush = true'),
    ]);
  });
});

describe('parseToml (smol-toml)', () => {
  it('tables, arrays of tables, strings, numbers, booleans, arrays, inline tables, comments', () => {
    expect(
      parseToml(`
# a comment
name = "w" # trailing
flags = [
  "a", # inside
  'b',
]
n = 1_000
t = true
"q.k" = """x
y"""
inline = { a = 1, b = { c = 'd' } }
[vars]
K = ""
[[dbs]]
id = 1
[[dbs]]
id = 2
`),
    ).toEqual({
      name: 'w',
      flags: ['a', 'b'],
      n: 1000,
      t: true,
      'q.k': 'x\ny',
      inline: { a: 1, b: { c: 'd' } },
      vars: { K: '' },
      dbs: [{ id: 1 }, { id: 2 }],
    });
  });

  it('throws on what it cannot read, and on duplicate keys', () => {
    expect(() => parseToml('x = ')).toThrow(/line 1/);
    expect(() => parseToml('[vars]\nA = "1"\nA = "2"')).toThrow(/line 3: trying to redefine/);
    expect(() => parseToml('s = "open')).toThrow(/line 1: unfinished string/);
  });
});
