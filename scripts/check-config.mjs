#!/usr/bin/env node
// The first step of `npm run check`: a deployable Worker config never turns on a
// development face, and holds no secret in plain text.
//
// - `DEV_OUTBOX` (the development outbox, /dev/*: every code "sent", readable by anyone) and
//   `REF_HTTP` (the reference upstream's HTTP face, /custom/* and /wx/*) must not be on in
//   `[vars]` or in any `[env.<name>.vars]`. Locally `npm start` passes them with --var.
// - `SESSION_SECRET`, `BYPASS_CODE` and `REF_HTTP_SECRET` are secrets: `wrangler secret put NAME`,
//   never `[vars]` (which is committed and shown in the dashboard).
//
//   node scripts/check-config.mjs [wrangler.toml | dist/server/wrangler.json]
//
// Exit 0 when the config is fine, 1 with one line per problem, 2 when the file cannot be read.
// Node built-ins only; the TOML reader below covers the TOML that wrangler configs use.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Variables that turn on a development face, and what they expose. */
export const DEV_FACES = {
  DEV_OUTBOX: 'the development outbox (/dev/outbox lists every verification code)',
  REF_HTTP: "the reference upstream's HTTP face (/custom/*, /wx/*)",
  PAY_SIMULATOR: "the reference upstream's payment simulator (/dev/pay/*: anyone can mark an order paid)",
};

/** Secrets: set with `wrangler secret put`, never in vars. */
export const SECRETS = ['SESSION_SECRET', 'BYPASS_CODE', 'REF_HTTP_SECRET', 'REF_PAY_SECRET'];

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

// ---------------------------------------------------------------------------------------------
// A small TOML reader (TOML 1.0 minus dates, which it keeps as text): tables, arrays of tables,
// dotted and quoted keys, strings of all four kinds, numbers, booleans, arrays, inline tables.
// It throws on what it does not understand rather than guess.
// ---------------------------------------------------------------------------------------------

/** Parses TOML text to a plain object. */
export function parseToml(text) {
  const root = {};
  let table = root;
  let i = 0;

  const fail = (msg) => {
    const line = text.slice(0, i).split('\n').length;
    throw new Error(`TOML line ${line}: ${msg}`);
  };
  const peek = (s) => text.startsWith(s, i);
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  /** Skips spaces, newlines and comments. */
  const skipAll = () => {
    for (;;) {
      skipSpace();
      if (text[i] === '#') while (i < text.length && text[i] !== '\n') i++;
      else if (text[i] === '\n' || text[i] === '\r') i++;
      else return;
    }
  };
  const endOfLine = () => {
    skipSpace();
    if (text[i] === '#') while (i < text.length && text[i] !== '\n') i++;
    if (text[i] === '\r') i++;
    if (i < text.length && text[i] !== '\n') fail(`unexpected ${JSON.stringify(text[i])}`);
  };

  const ESCAPES = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
  function basicString(multi) {
    const close = multi ? '"""' : '"';
    i += close.length;
    if (multi && text[i] === '\n') i++;
    else if (multi && peek('\r\n')) i += 2;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      if (peek(close)) {
        i += close.length;
        return out;
      }
      const ch = text[i];
      if (!multi && ch === '\n') fail('newline in a string');
      if (ch === '\\') {
        const e = text[i + 1];
        if (e in ESCAPES) {
          out += ESCAPES[e];
          i += 2;
        } else if (e === 'u' || e === 'U') {
          const n = e === 'u' ? 4 : 8;
          out += String.fromCodePoint(parseInt(text.slice(i + 2, i + 2 + n), 16));
          i += 2 + n;
        } else if (multi && (e === '\n' || e === ' ' || e === '\t' || e === '\r')) {
          i++;
          while (/\s/.test(text[i] ?? '')) i++;
        } else fail(`bad escape \\${e}`);
      } else {
        out += ch;
        i++;
      }
    }
  }
  function literalString(multi) {
    const close = multi ? "'''" : "'";
    i += close.length;
    if (multi && text[i] === '\n') i++;
    const end = text.indexOf(close, i);
    if (end < 0) fail('unterminated string');
    const out = text.slice(i, end);
    if (!multi && out.includes('\n')) fail('newline in a string');
    i = end + close.length;
    return out;
  }
  function key() {
    const parts = [];
    for (;;) {
      skipSpace();
      if (text[i] === '"') parts.push(basicString(false));
      else if (text[i] === "'") parts.push(literalString(false));
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
        if (!m) fail('expected a key');
        parts.push(m[0]);
        i += m[0].length;
      }
      skipSpace();
      if (text[i] !== '.') return parts;
      i++;
    }
  }
  function value() {
    skipSpace();
    if (peek('"""')) return basicString(true);
    if (peek("'''")) return literalString(true);
    if (text[i] === '"') return basicString(false);
    if (text[i] === "'") return literalString(false);
    if (text[i] === '[') {
      i++;
      const arr = [];
      for (;;) {
        skipAll();
        if (text[i] === ']') {
          i++;
          return arr;
        }
        arr.push(value());
        skipAll();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected , or ] in an array');
      }
    }
    if (text[i] === '{') {
      i++;
      const obj = {};
      skipSpace();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        const k = key();
        if (text[i] !== '=') fail('expected = in an inline table');
        i++;
        assign(obj, k, value());
        skipSpace();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return obj;
        } else fail('expected , or } in an inline table');
      }
    }
    const m = /^[^\s,\]}#]+/.exec(text.slice(i));
    if (!m) fail('expected a value');
    i += m[0].length;
    const word = m[0];
    if (word === 'true') return true;
    if (word === 'false') return false;
    const num = word.replace(/_/g, '');
    if (/^[+-]?(\d+|0x[0-9a-f]+|0o[0-7]+|0b[01]+)$/i.test(num)) return Number(num.replace(/^\+/, ''));
    if (/^[+-]?(\d+(\.\d+)?([eE][+-]?\d+)?|inf|nan)$/.test(num)) return Number(num);
    if (/^\d{4}-\d{2}-\d{2}/.test(word) || /^\d{2}:\d{2}/.test(word)) return word; // a date or time, kept as text
    return fail(`cannot read the value ${JSON.stringify(word)}`);
  }
  function assign(obj, parts, v) {
    let target = obj;
    for (const p of parts.slice(0, -1)) {
      if (!(p in target)) target[p] = {};
      target = target[p];
      if (typeof target !== 'object' || target === null || Array.isArray(target)) fail(`${p} is not a table`);
    }
    const last = parts[parts.length - 1];
    if (last in target) fail(`duplicate key ${parts.join('.')}`);
    target[last] = v;
  }
  function tableAt(parts, array) {
    let target = root;
    parts.forEach((p, n) => {
      const lastPart = n === parts.length - 1;
      if (lastPart && array) {
        if (!(p in target)) target[p] = [];
        if (!Array.isArray(target[p])) fail(`${p} is not an array of tables`);
        const t = {};
        target[p].push(t);
        target = t;
        return;
      }
      if (!(p in target)) target[p] = {};
      target = Array.isArray(target[p]) ? target[p][target[p].length - 1] : target[p];
      if (typeof target !== 'object' || target === null) fail(`${p} is not a table`);
    });
    return target;
  }

  for (;;) {
    skipAll();
    if (i >= text.length) return root;
    if (peek('[[')) {
      i += 2;
      const parts = key();
      if (!peek(']]')) fail('expected ]]');
      i += 2;
      table = tableAt(parts, true);
    } else if (text[i] === '[') {
      i++;
      const parts = key();
      if (text[i] !== ']') fail('expected ]');
      i++;
      table = tableAt(parts, false);
    } else {
      const parts = key();
      if (text[i] !== '=') fail('expected =');
      i++;
      assign(table, parts, value());
    }
    endOfLine();
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
  const problems = checkConfig(config);
  if (problems.length > 0) {
    console.error(`check-config: ${path} is not safe to deploy:`);
    for (const p of problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  console.log(`check-config: ${path}: no development face on, no secret in vars.`);
}
