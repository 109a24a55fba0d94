/**
 * The deploy guide and the local example stay complete (issue 24): every variable and secret the
 * Worker reads (functions/env.ts) is in docs/deploy.md's table and in .dev.vars.example, and
 * wrangler.toml keeps dashboard variables and sends no metrics.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseToml } from '../../scripts/check-config.mjs';

const envTs = readFileSync('functions/env.ts', 'utf8');
const BINDINGS = new Set(['DB', 'STAFF', 'LIMITS']);
/** Every name AppEnv declares: `  NAME?: type;` */
const NAMES = [...envTs.matchAll(/\n\s+([A-Z][A-Z0-9_]+)\??:\s/g)].map((m) => m[1] ?? '').filter((n) => n && !BINDINGS.has(n));

describe('docs/deploy.md and .dev.vars.example', () => {
  it('reads the names from functions/env.ts', () => {
    expect(NAMES).toContain('SESSION_SECRET');
    expect(NAMES).toContain('LIMIT_SENDS_PER_IP56_HOUR');
    expect(NAMES.length).toBeGreaterThan(50);
  });

  it('the guide describes every variable and secret, and every binding', () => {
    const guide = readFileSync('docs/deploy.md', 'utf8');
    expect(NAMES.filter((n) => !guide.includes(`\`${n}\``))).toEqual([]);
    for (const b of BINDINGS) expect(guide).toContain(`| \`${b}\` | binding`);
  });

  it('the example lists every variable and secret, and no value a deployment would need kept secret', () => {
    const example = readFileSync('.dev.vars.example', 'utf8');
    expect(NAMES.filter((n) => !new RegExp(`^#? ?${n}=`, 'm').test(example))).toEqual([]);
    for (const line of example.split('\n').filter((l) => /^SESSION_SECRET=|^REF_PAY_SECRET=/.test(l))) expect(line).toMatch(/not-for-production/);
  });

  it('wrangler.toml keeps dashboard variables, sends no metrics and leaves UPSTREAM_URL to one place', () => {
    const config = parseToml(readFileSync('wrangler.toml', 'utf8')) as { keep_vars?: boolean; send_metrics?: boolean; vars?: Record<string, unknown> };
    expect(config.keep_vars).toBe(true);
    expect(config.send_metrics).toBe(false);
    expect(config.vars ?? {}).not.toHaveProperty('UPSTREAM_URL');
  });
});
