#!/usr/bin/env node
// The first step of `npm run check`: a deployable Worker config never turns on a
// development face, and holds no secret in plain text.
//
// - `DEV_OUTBOX` (the development outbox, /dev/*: every code "sent", readable by anyone) and
//   `REF_HTTP` (the reference upstream's HTTP face, /custom/* and /wx/*) must not be on in
//   `[vars]` or in any `[env.<name>.vars]`. Locally `npm start` passes them with --var.
// - `SESSION_SECRET`, `BYPASS_CODE`, `REF_HTTP_SECRET`, `REF_PAY_SECRET` and `HEALTH_TOKEN` are secrets: `wrangler secret put NAME`,
//   never `[vars]` (which is committed and shown in the dashboard).
// - No platform log records the URL as requested (issue 30, docs/deploy.md "Logs"): our paths
//   carry registration codes and gate keys. `[observability]` is declared (a Worker without it
//   keeps whatever the dashboard has, invocation logs included) with
//   `[observability.logs] invocation_logs = false`, traces are not turned on, nor `logpush`; the
//   same for every `[env.<name>]` that declares its own.
//
// - Environments (docs/deploy.md "The layout of wrangler.toml"): the top level of wrangler.toml is
//   the local Worker (`npm start`, `npm run dev`, the tests); each deployment is an `[env.<name>]`
//   (production, staging) that declares its own name, its own address and its own bindings. Wrangler
//   copies the top level's `routes`, `route` and `workers_dev` into every environment that does not
//   declare them, so the top level declares none of them: a staging built from a file whose top
//   level carries the production domain would claim that domain (or `workers_dev = false`) too.
//   No two environments share a host or a database; production is served on a domain of its own
//   (mainland China cannot reach workers.dev).
// - No placeholder reaches a deployment: a database id of zeros, an example host (example.com,
//   .example, .test…) in a route or a variable, Turnstile's test keys, `<…>` or `CHANGE_ME`.
//   In wrangler.toml they are checked in each `[env.<name>]` (the top level is the local Worker,
//   whose ids are placeholders on purpose); in a built `wrangler.json` (one environment, flat),
//   everywhere.
//
//   node scripts/check-config.mjs [wrangler.toml [--env NAME] | dist/server/wrangler.json]
//
// `--env NAME` checks that environment only (it must be declared); without it, every one.
//
// Exit 0 when the config is fine, 1 with one line per problem, 2 when the file cannot be read.
// TOML is read by smol-toml (a kept parser, not one of our own: issue 24).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parse, TomlError } from 'smol-toml';

/** Variables that turn on a development face, and what they expose. */
export const DEV_FACES = {
  DEV_OUTBOX: 'the development outbox (/dev/outbox lists every verification code)',
  REF_HTTP: "the reference upstream's HTTP face (/custom/*, /wx/*)",
  PAY_SIMULATOR: "the reference upstream's payment simulator (/dev/pay/*: anyone can mark an order paid)",
};

/** Secrets: set with `wrangler secret put`, never in vars. */
export const SECRETS = ['SESSION_SECRET', 'BYPASS_CODE', 'REF_HTTP_SECRET', 'REF_PAY_SECRET', 'HEALTH_TOKEN'];

/** Whether a var's value turns its face on: anything but empty, "0", "false", "off", "no" (fail closed). */
export function isOn(value) {
  if (value === undefined || value === null || value === false || value === 0) return false;
  const text = String(value).trim().toLowerCase();
  return !['', '0', 'false', 'off', 'no'].includes(text);
}

/**
 * The problems of a parsed Worker config (wrangler.toml or wrangler.json as an object): the top
 * level's `vars` and every `env.<name>.vars`.
 * @returns {string[]} one message per problem; empty when fine
 */
export function checkConfig(config) {
  const scopes = [['[vars]', config?.vars]];
  for (const [name, env] of Object.entries(config?.env ?? {})) scopes.push([`[env.${name}.vars]`, env?.vars]);
  const problems = [];
  for (const [where, vars] of scopes) {
    if (vars === undefined || vars === null) continue;
    if (typeof vars !== 'object' || Array.isArray(vars)) {
      problems.push(`${where} is not a table`);
      continue;
    }
    for (const [name, what] of Object.entries(DEV_FACES)) {
      if (name in vars && isOn(vars[name])) {
        problems.push(
          `${where} ${name} = ${JSON.stringify(vars[name])} turns on ${what} in a deployment. ` +
            `Remove it: set it only locally (--var, .dev.vars).`,
        );
      }
    }
    for (const name of SECRETS) {
      if (name in vars)
        problems.push(`${where} ${name} is a secret: remove it and run \`npx wrangler secret put ${name}\`.`);
    }
  }
  return problems;
}

/**
 * The platform logs a config would turn on that record every request's URL (issue 30): Workers
 * Logs' invocation log, traces, Logpush. The top level must declare `observability` with the
 * invocation log off (when Workers Logs is on at all); an environment that declares its own
 * `observability` (it replaces the top level's: wrangler inherits it whole) is held to the same.
 * @returns {string[]} one message per problem; empty when fine
 */
export function logProblems(config) {
  const problems = [];
  const scopes = [['', config, true]];
  for (const [name, env] of Object.entries(config?.env ?? {})) scopes.push([`env.${name}.`, env, false]);
  for (const [prefix, scope, top] of scopes) {
    if (scope?.logpush === true)
      problems.push(
        `${prefix ? `[${prefix.slice(0, -1)}]` : 'The top level:'} logpush = true sends every request's URL to a Logpush job: remove it (docs/deploy.md "Logs").`,
      );
    const o = scope?.observability;
    if (o === undefined || o === null) {
      if (top)
        problems.push(
          '[observability] is not declared: declare it with [observability.logs] invocation_logs = false (docs/deploy.md "Logs").',
        );
      continue;
    }
    if (typeof o !== 'object' || Array.isArray(o)) {
      problems.push(`[${prefix}observability] is not a table`);
      continue;
    }
    const logsOn = o.enabled === true || o.logs?.enabled === true;
    if (logsOn && o.logs?.invocation_logs !== false)
      problems.push(
        `[${prefix}observability.logs] invocation_logs is not false: the invocation log records every URL as requested (registration codes, gate keys). Set it to false (docs/deploy.md "Logs").`,
      );
    if (o.traces?.enabled === true)
      problems.push(
        `[${prefix}observability.traces] enabled = true records every URL as requested: turn traces off (docs/deploy.md "Logs").`,
      );
  }
  return problems;
}

/** Keys wrangler copies from the top level into an environment that does not declare them, and that
 * say where a Worker answers: each deployment declares its own. */
export const ADDRESS_KEYS = ['routes', 'route', 'workers_dev'];

/** The environment that must be served on a domain of its own (mainland China cannot reach workers.dev). */
export const PRODUCTION = 'production';

/** The bindings every deployment needs (functions/env.ts), and of what kind. */
export const BINDINGS = { DB: 'd1_databases', STAFF: 'd1_databases', LIMITS: 'durable_objects' };

/** Host names that are never an operator's own: RFC 2606 / 6761 names and local ones. */
const EXAMPLE_HOST = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost|local)$/i;

/**
 * Whether a value is a placeholder left from the guide or this repository's file, not an operator's
 * own value: a database id of zeros (the file's own ids end in a small number), text in angle
 * brackets, CHANGE_ME / REPLACE / TODO / YOUR_…, Turnstile's test keys (`1x000…`: they always pass),
 * or a URL or host on an example domain.
 */
export function isPlaceholder(value) {
  if (typeof value !== 'string') return false;
  const text = value.trim();
  if (text === '') return false;
  if (/^0{8}-0{4}-0{4}-0{4}-0{8}[0-9a-f]{4}$/i.test(text)) return true;
  if (/<[^>]*>|\bchange[_ -]?me\b|\breplace[_ -]?(me|this)?\b|\btodo\b|\byour[_-]/i.test(text)) return true;
  if (/^[0-9]x0{10,}[A-Z]{0,2}$/i.test(text)) return true;
  const host = hostOf(text);
  return host !== null && EXAMPLE_HOST.test(host);
}

/** The host of a URL, a route pattern (`expo.example.com/*`, `*.example.com/x`) or a bare host name; null when it is none. */
export function hostOf(text) {
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)+|localhost)(?::\d+)?(?:[/?#*].*)?$/i.exec(
    String(text).trim(),
  );
  return m ? m[1].toLowerCase() : null;
}

/** The route patterns a scope declares (`routes`, `route`), as host names. */
export function routeHosts(scope) {
  const routes = [...(Array.isArray(scope?.routes) ? scope.routes : []), ...(scope?.route ? [scope.route] : [])];
  return routes.map((r) => hostOf(typeof r === 'string' ? r : (r?.pattern ?? ''))).filter((h) => h !== null);
}

/**
 * The placeholders one deployable scope holds (an `[env.<name>]` of wrangler.toml, or a built
 * wrangler.json): database ids, route patterns and custom domains, variables.
 * @returns {string[]} one message per placeholder
 */
export function placeholderProblems(scope, where) {
  const problems = [];
  for (const db of Array.isArray(scope?.d1_databases) ? scope.d1_databases : []) {
    for (const key of ['database_id', 'preview_database_id']) {
      if (isPlaceholder(db?.[key]))
        problems.push(
          `${where} D1 ${db.binding} ${key} = "${db[key]}" is a placeholder: \`npx wrangler d1 create ${db.database_name ?? '…'}\` and put its id here (docs/deploy.md).`,
        );
    }
  }
  const routes = [...(Array.isArray(scope?.routes) ? scope.routes : []), ...(scope?.route ? [scope.route] : [])];
  for (const r of routes) {
    const pattern = typeof r === 'string' ? r : r?.pattern;
    if (isPlaceholder(pattern))
      problems.push(
        `${where} route "${pattern}" is a placeholder: put your own domain (docs/deploy.md "Your domain").`,
      );
    if (r && typeof r === 'object' && isPlaceholder(r.zone_name))
      problems.push(`${where} zone_name "${r.zone_name}" is a placeholder: put your own zone.`);
  }
  const vars = scope?.vars && typeof scope.vars === 'object' ? scope.vars : {};
  for (const [name, value] of Object.entries(vars)) {
    if (isPlaceholder(value))
      problems.push(`${where} vars ${name} = "${value}" is a placeholder: put the real value or remove the line.`);
  }
  return problems;
}

/**
 * The environments of a wrangler.toml: none inherits an address (routes, route, workers_dev) from
 * the top level, each names its own Worker and declares its own bindings, no two share a host, a
 * Worker or a database, each answers somewhere, and production on a domain of its own. A config
 * without `env` (a built wrangler.json is one environment, flat) has nothing to check here.
 * @param {string[]} [only] the environments to hold to placeholders (default: every one)
 * @returns {string[]} one message per problem; empty when fine
 */
export function envProblems(config, only) {
  const envs = Object.entries(config?.env ?? {});
  if (envs.length === 0) return [];
  const problems = [];
  for (const key of ADDRESS_KEYS) {
    if (config[key] !== undefined)
      problems.push(
        `The top level declares ${key}: wrangler copies it into every [env.*] that does not declare its own (a staging with the production domain). Move it into [env.${PRODUCTION}] (docs/deploy.md "The layout of wrangler.toml").`,
      );
  }
  const seenHosts = new Map();
  const seenNames = new Map();
  const seenDbs = new Map();
  for (const [name, env] of envs) {
    const where = `[env.${name}]`;
    if (typeof env?.name !== 'string' || env.name.trim() === '')
      problems.push(
        `${where} declares no name: name its Worker (otherwise wrangler derives one from the top level's).`,
      );
    else if (seenNames.has(env.name))
      problems.push(`${where} name "${env.name}" is [env.${seenNames.get(env.name)}]'s too: one Worker each.`);
    else seenNames.set(env.name, name);
    const hosts = routeHosts(env);
    if (hosts.length === 0 && env?.workers_dev !== true)
      problems.push(`${where} answers nowhere: declare its routes (a custom domain) or workers_dev = true.`);
    if (name === PRODUCTION && hosts.length === 0)
      problems.push(
        `${where} has no route: production is served on a domain of its own (mainland China cannot reach workers.dev; docs/deploy.md "Your domain").`,
      );
    for (const host of hosts) {
      if (seenHosts.has(host))
        problems.push(
          `${where} route host ${host} is [env.${seenHosts.get(host)}]'s too: each environment has a host of its own.`,
        );
      else seenHosts.set(host, name);
    }
    for (const [binding, kind] of Object.entries(BINDINGS)) {
      const list = kind === 'd1_databases' ? env?.d1_databases : env?.durable_objects?.bindings;
      const found = (Array.isArray(list) ? list : []).find((b) => (b?.binding ?? b?.name) === binding);
      if (!found)
        problems.push(
          `${where} declares no ${binding} binding (bindings are not inherited: declare it in the environment).`,
        );
    }
    for (const db of Array.isArray(env?.d1_databases) ? env.d1_databases : []) {
      const id = db?.database_id;
      if (typeof id !== 'string' || isPlaceholder(id)) continue;
      const other = seenDbs.get(id);
      if (other && other !== name)
        problems.push(
          `${where} D1 ${db.binding} database_id ${id} is [env.${other}]'s too: each environment has databases of its own.`,
        );
      else seenDbs.set(id, name);
    }
    if (only === undefined || only.includes(name)) problems.push(...placeholderProblems(env, where));
  }
  for (const name of only ?? []) {
    if (!envs.some(([n]) => n === name)) problems.push(`[env.${name}] is not declared in this file.`);
  }
  return problems;
}

/**
 * Every problem of a config: development faces and secrets in vars, platform logs of URLs, and
 * for a wrangler.toml with environments their layout and placeholders; a built config (no `env`)
 * is one deployment, so its placeholders count everywhere.
 * @param {{ env?: string }} [opts] `env`: the one environment to hold to placeholders
 */
export function allProblems(config, opts = {}) {
  const problems = [...checkConfig(config), ...logProblems(config)];
  if (Object.keys(config?.env ?? {}).length > 0)
    problems.push(...envProblems(config, opts.env ? [opts.env] : undefined));
  else problems.push(...placeholderProblems(config, 'The top level:'));
  return problems;
}

/**
 * Parses TOML text to a plain object with smol-toml (TOML 1.0, the parser Astro itself uses;
 * a dev dependency of its own here). Dates come back as objects; nothing checked here is one.
 * A syntax error names its line: `TOML line N: what`.
 */
export function parseToml(text) {
  try {
    return parse(text);
  } catch (e) {
    if (e instanceof TomlError) {
      const what = e.message.replace(/^Invalid TOML document: /, '').split('\n')[0];
      throw new Error(`TOML line ${e.line}: ${what}`);
    }
    throw e;
  }
}

/** Reads a config file: `.json` as JSON, anything else as TOML. */
export function readConfig(path) {
  const text = readFileSync(path, 'utf8');
  return path.endsWith('.json') ? JSON.parse(text) : parseToml(text);
}

// CLI
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const envAt = args.indexOf('--env');
  const env = envAt >= 0 ? args[envAt + 1] : undefined;
  const path = args.find((a, i) => !a.startsWith('--') && (envAt < 0 || i !== envAt + 1)) ?? 'wrangler.toml';
  let config;
  try {
    config = readConfig(path);
  } catch (e) {
    console.error(`check-config: cannot read ${path}: ${e?.message ?? e}`);
    process.exit(2);
  }
  const problems = allProblems(config, { env });
  if (problems.length > 0) {
    console.error(`check-config: ${path}${env ? ` [env.${env}]` : ''} is not safe to deploy:`);
    for (const p of problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  console.log(
    `check-config: ${path}${env ? ` [env.${env}]` : ''}: no development face on, no secret in vars, no platform log of URLs, no placeholder, no address inherited.`,
  );
}
