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
//   node scripts/check-config.mjs [wrangler.toml | dist/server/wrangler.json]
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
      problems.push(`${prefix ? `[${prefix.slice(0, -1)}]` : 'The top level:'} logpush = true sends every request's URL to a Logpush job: remove it (docs/deploy.md "Logs").`);
    const o = scope?.observability;
    if (o === undefined || o === null) {
      if (top) problems.push('[observability] is not declared: declare it with [observability.logs] invocation_logs = false (docs/deploy.md "Logs").');
      continue;
    }
    if (typeof o !== 'object' || Array.isArray(o)) {
      problems.push(`[${prefix}observability] is not a table`);
      continue;
    }
    const logsOn = o.enabled === true || o.logs?.enabled === true;
    if (logsOn && o.logs?.invocation_logs !== false)
      problems.push(`[${prefix}observability.logs] invocation_logs is not false: the invocation log records every URL as requested (registration codes, gate keys). Set it to false (docs/deploy.md "Logs").`);
    if (o.traces?.enabled === true)
      problems.push(`[${prefix}observability.traces] enabled = true records every URL as requested: turn traces off (docs/deploy.md "Logs").`);
  }
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
  const path = process.argv[2] ?? 'wrangler.toml';
  let config;
  try {
    config = readConfig(path);
  } catch (e) {
    console.error(`check-config: cannot read ${path}: ${e?.message ?? e}`);
    process.exit(2);
  }
  const problems = [...checkConfig(config), ...logProblems(config)];
  if (problems.length > 0) {
    console.error(`check-config: ${path} is not safe to deploy:`);
    for (const p of problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  console.log(`check-config: ${path}: no development face on, no secret in vars, no platform log of URLs.`);
}
