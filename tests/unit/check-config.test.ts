/**
 * scripts/check-config.mjs, the first step of `npm run check` and of each `npm run deploy:<env>`
 * (issue 9 §5): a config that turns on a development face (DEV_OUTBOX, REF_HTTP) or holds a
 * secret in vars is refused; so is one that would let the platform log every request's URL
 * (issue 30: invocation logs, traces, Logpush), one whose environments inherit an address from the
 * top level or share a host or a database (a staging with the production domain), and one that
 * still holds a placeholder (a database id of zeros, an example domain, Turnstile's test keys).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  allProblems,
  checkConfig,
  envProblems,
  hostOf,
  isOn,
  isPlaceholder,
  logProblems,
  parseToml,
  readConfig,
} from '../../scripts/check-config.mjs';
import { builtProblems, environmentsFor } from '../../scripts/deploy.mjs';

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

[[d1_databases]]
binding = "DB"
database_name = "expo-pass-reference"
database_id = "00000000-0000-0000-0000-000000000000"
migrations_dir = "functions/reference/migrations"

[env.production]
name = "expo-pass"
routes = [{ pattern = "expo.organiser.cn", custom_domain = true }]
workers_dev = false
vars = { UPSTREAM_URL = "https://api.organiser.cn" }
d1_databases = [
  { binding = "DB", database_name = "r", database_id = "5b3c6a0e-8f1d-4c2b-9a7e-0d1e2f3a4b5c" },
  { binding = "STAFF", database_name = "s", database_id = "6c4d7b1f-9a2e-4d3c-8b8f-1e2f3a4b5c6d" },
]
durable_objects = { bindings = [{ name = "LIMITS", class_name = "Limiter" }] }

[env.staging]
name = "expo-pass-staging"
workers_dev = true
d1_databases = [
  { binding = "DB", database_name = "r2", database_id = "7d5e8c2a-0b3f-4e4d-9c9a-2f3a4b5c6d7e" },
  { binding = "STAFF", database_name = "s2", database_id = "8e6f9d3b-1c4a-4f5e-8dab-3a4b5c6d7e8f" },
]
durable_objects = { bindings = [{ name = "LIMITS", class_name = "Limiter" }] }
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

  it("the project's own wrangler.toml: its layout passes, its placeholders are refused until the operator replaces them", () => {
    const own = readConfig('wrangler.toml');
    expect(checkConfig(own)).toEqual([]);
    expect(logProblems(own)).toEqual([]);
    const problems = envProblems(own);
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).toMatch(/is a placeholder/);
    expect(problems.join('\n')).toMatch(/\[env\.production\] route "expo\.example\.com" is a placeholder/);
    expect(problems.join('\n')).toMatch(
      /\[env\.staging\] D1 DB database_id = "0{8}-0{4}-0{4}-0{4}-0+10" is a placeholder/,
    );
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
    expect(logProblems({ observability: { enabled: true } })).toEqual([
      expect.stringContaining('invocation_logs is not false'),
    ]);
    expect(
      logProblems({ observability: { enabled: true, logs: { enabled: true, invocation_logs: true } } }),
    ).toHaveLength(1);
    expect(logProblems({ observability: { enabled: false, logs: { enabled: true } } })).toHaveLength(1);
    expect(logProblems({ observability: { enabled: true, logs: { invocation_logs: false } } })).toEqual([]);
    expect(logProblems({ observability: { enabled: false } })).toEqual([]);
  });

  it('traces and Logpush stay off', () => {
    const off = { enabled: true, logs: { invocation_logs: false } };
    expect(logProblems({ observability: { ...off, traces: { enabled: true } } })).toEqual([
      expect.stringContaining('[observability.traces] enabled = true'),
    ]);
    expect(logProblems({ observability: off, logpush: true })).toEqual([expect.stringContaining('logpush = true')]);
    expect(logProblems({ observability: { ...off, traces: { enabled: false } }, logpush: false })).toEqual([]);
  });

  it("an environment that declares its own observability (it replaces the top level's) is held to the same; one that does not inherits", () => {
    const off = { enabled: true, logs: { invocation_logs: false } };
    expect(logProblems({ observability: off, env: { staging: {} } })).toEqual([]);
    expect(
      logProblems({
        observability: off,
        env: { staging: { observability: { enabled: true } }, other: { logpush: true } },
      }),
    ).toEqual([
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

/** GOOD with one text replaced, parsed. */
const variant = (from: string, to: string) => parseToml(GOOD.replace(from, to));

describe('environments (docs/deploy.md "The layout of wrangler.toml"): none inherits what it must not', () => {
  it('a good layout passes', () => {
    expect(allProblems(parseToml(GOOD))).toEqual([]);
  });

  it('staging cannot carry the production domain: a top-level routes or workers_dev (which wrangler copies into every environment) is refused', () => {
    // The trap of the old guide: its custom domain at the top level, then a staging section.
    const trap = parseToml(
      `routes = [{ pattern = "expo.organiser.cn", custom_domain = true }]\nworkers_dev = false\n${GOOD}`,
    );
    const problems = allProblems(trap);
    expect(problems.some((p) => /top level declares routes/.test(p))).toBe(true);
    expect(problems.some((p) => /top level declares workers_dev/.test(p))).toBe(true);
    expect(cli('trap.toml', `route = "expo.organiser.cn/*"\n${GOOD}`)).toMatchObject({
      status: 1,
      out: expect.stringContaining('The top level declares route:'),
    });
  });

  it('staging cannot carry the production domain by declaring it either, nor its databases', () => {
    const shared = variant(
      'workers_dev = true',
      'routes = [{ pattern = "expo.organiser.cn/*", zone_name = "organiser.cn" }]',
    );
    expect(envProblems(shared)).toEqual([
      expect.stringContaining('[env.staging] route host expo.organiser.cn is [env.production]'),
    ]);
    const sameDb = variant('7d5e8c2a-0b3f-4e4d-9c9a-2f3a4b5c6d7e', '5b3c6a0e-8f1d-4c2b-9a7e-0d1e2f3a4b5c');
    expect(envProblems(sameDb)).toEqual([
      expect.stringContaining("database_id 5b3c6a0e-8f1d-4c2b-9a7e-0d1e2f3a4b5c is [env.production]'s too"),
    ]);
    const sameName = variant('name = "expo-pass-staging"', 'name = "expo-pass"');
    expect(envProblems(sameName)).toEqual([expect.stringContaining('name "expo-pass" is [env.production]')]);
  });

  it('production is on a domain of its own; every environment names its Worker, answers somewhere and declares its bindings', () => {
    expect(
      envProblems(
        variant(
          'routes = [{ pattern = "expo.organiser.cn", custom_domain = true }]\nworkers_dev = false',
          'workers_dev = true',
        ),
      ),
    ).toEqual([expect.stringContaining('[env.production] has no route')]);
    expect(envProblems(variant('workers_dev = true', ''))).toEqual([
      expect.stringContaining('[env.staging] answers nowhere'),
    ]);
    expect(envProblems(variant('name = "expo-pass-staging"', ''))).toEqual([
      expect.stringContaining('[env.staging] declares no name'),
    ]);
    const noLimits = GOOD.slice(0, GOOD.lastIndexOf('durable_objects'));
    expect(envProblems(parseToml(noLimits))).toEqual([
      expect.stringContaining('[env.staging] declares no LIMITS binding'),
    ]);
  });
});

describe('placeholders are refused', () => {
  it('what counts as a placeholder', () => {
    for (const p of [
      '00000000-0000-0000-0000-000000000000',
      '00000000-0000-0000-0000-000000000011',
      'expo.example.com',
      '*.example.org/*',
      'https://api.organiser.example',
      'http://localhost:8787',
      'x.test',
      '<your database id>',
      'CHANGE_ME',
      'YOUR_SITE_KEY',
      '1x00000000000000000000AA',
      '3x00000000000000000000FF',
      '1x0000000000000000000000000000000AA',
    ])
      expect(isPlaceholder(p), p).toBe(true);
    for (const p of [
      '5b3c6a0e-8f1d-4c2b-9a7e-0d1e2f3a4b5c',
      'expo.organiser.cn',
      'https://api.organiser.cn/',
      '0x4AAAAAAAB',
      '',
      '60',
      'apac',
      'full',
    ])
      expect(isPlaceholder(p), p).toBe(false);
    expect(hostOf('*.expo.organiser.cn/*')).toBe('expo.organiser.cn');
    expect(hostOf('https://api.organiser.cn:8443/x?y')).toBe('api.organiser.cn');
  });

  it('a database id of zeros, an example domain, a placeholder variable or Turnstile test key in an environment: refused, each named', () => {
    const placeholders = parseToml(
      GOOD.replace('5b3c6a0e-8f1d-4c2b-9a7e-0d1e2f3a4b5c', '00000000-0000-0000-0000-000000000020')
        .replace('"expo.organiser.cn"', '"expo.example.com"')
        .replace(
          'UPSTREAM_URL = "https://api.organiser.cn"',
          'UPSTREAM_URL = "https://api.organiser.example", TURNSTILE_SITE_KEY = "1x00000000000000000000AA"',
        ),
    );
    const problems = allProblems(placeholders);
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/D1 DB database_id = "0+-0+-0+-0+-0+20" is a placeholder/);
    expect(problems.join('\n')).toMatch(/route "expo\.example\.com" is a placeholder/);
    expect(problems.join('\n')).toMatch(/vars UPSTREAM_URL = "https:\/\/api\.organiser\.example" is a placeholder/);
    expect(problems.join('\n')).toMatch(/vars TURNSTILE_SITE_KEY = "1x0+AA" is a placeholder/);
    const { status, out } = cli(
      'placeholders.toml',
      GOOD.replace('8e6f9d3b-1c4a-4f5e-8dab-3a4b5c6d7e8f', '00000000-0000-0000-0000-000000000000'),
    );
    expect(status).toBe(1);
    expect(out).toContain(
      '[env.staging] D1 STAFF database_id = "00000000-0000-0000-0000-000000000000" is a placeholder',
    );
  });

  it('--env holds that environment alone to placeholders (the other may wait), and must name a declared one', () => {
    const file = GOOD.replace('8e6f9d3b-1c4a-4f5e-8dab-3a4b5c6d7e8f', '00000000-0000-0000-0000-000000000000');
    expect(cli('one-env.toml', file).status).toBe(1);
    const prod = join(dir, 'one-env.toml');
    const run = (env: string) => {
      try {
        execFileSync(process.execPath, ['scripts/check-config.mjs', prod, '--env', env], { stdio: 'pipe' });
        return 0;
      } catch (e) {
        return (e as { status: number }).status;
      }
    };
    expect(run('production')).toBe(0);
    expect(run('staging')).toBe(1);
    expect(run('preview')).toBe(1);
  });

  it('a built wrangler.json is one environment: placeholders anywhere in it are refused', () => {
    expect(
      allProblems({
        name: 'expo-pass',
        observability: { enabled: false },
        d1_databases: [{ binding: 'DB', database_id: '00000000-0000-0000-0000-000000000020' }],
      }),
    ).toEqual([expect.stringContaining('The top level: D1 DB database_id')]);
  });
});

describe('scripts/deploy.mjs: one environment per command', () => {
  const source = parseToml(GOOD);
  const built = {
    name: 'expo-pass',
    routes: [{ pattern: 'expo.organiser.cn', custom_domain: true }],
    workers_dev: false,
  };

  it('a build is deployed only as the environment it was built for', () => {
    expect(builtProblems(built, source, 'production')).toEqual([]);
    expect(builtProblems(built, source, 'staging')).toEqual([
      expect.stringContaining('is the Worker "expo-pass", not [env.staging]\'s "expo-pass-staging"'),
      expect.stringContaining('answers on [expo.organiser.cn], [env.staging] declares []'),
      expect.stringContaining('workers_dev = false, [env.staging] declares true'),
    ]);
    expect(builtProblems({ ...built, name: 'expo-pass-local' }, source, 'production')).toEqual([
      expect.stringContaining('build with CLOUDFLARE_ENV=production'),
    ]);
  });

  it('deploy names one declared environment; check without one covers them all', () => {
    expect(environmentsFor('deploy', 'staging', source)).toEqual(['staging']);
    expect(() => environmentsFor('deploy', undefined, source)).toThrow(
      /npm run deploy:production or npm run deploy:staging/,
    );
    expect(() => environmentsFor('deploy', 'preview', source)).toThrow(/\[env\.preview\] is not declared/);
    expect(environmentsFor('check', undefined, source)).toEqual(['production', 'staging']);
  });

  it('package.json has one deploy command per environment of wrangler.toml, each naming its own', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    const envs = Object.keys((readConfig('wrangler.toml') as { env?: object }).env ?? {});
    expect(envs).toEqual(['production', 'staging']);
    for (const env of envs) expect(scripts[`deploy:${env}`]).toBe(`node scripts/deploy.mjs deploy ${env}`);
    expect(scripts.check).toBe('node scripts/deploy.mjs check');
  });
});
