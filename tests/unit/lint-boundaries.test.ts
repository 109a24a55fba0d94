/**
 * The import boundaries of eslint.config.js fire: each rule refuses an offending import from a
 * (virtual) file in the folder it guards, with its own message, and the allowed imports pass.
 * Runs ESLint's Node API on snippets, so no file is written.
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The first lint loads the parsers (a few seconds on a busy machine). */
const SLOW_MS = 30_000;
const eslint = new ESLint({ overrideConfigFile: 'eslint.config.js' });

/** The no-restricted-imports messages ESLint gives `code` as if it were the file at `path`. */
async function refusals(path: string, from: string): Promise<string[]> {
  const code = path.endsWith('.astro') ? `---\nimport x from '${from}';\nconsole.log(x);\n---\n<p>x</p>\n` : `import x from '${from}';\nexport default x;\n`;
  const [result] = await eslint.lintText(code, { filePath: resolve(path) });
  // A snippet ESLint could not parse (or ignored) would pass every "allowed" case for nothing.
  expect(result?.messages.filter((m) => m.fatal === true || m.ruleId === null)).toEqual([]);
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const MESSAGES = {
  uiWorker: /Pages, components, islands and stores never import the Worker \(functions\/\)/,
  workersModule: /Under src\/, only src\/middleware\.ts reads 'cloudflare:workers'/,
  apiIslands: /functions\/api never imports src\/islands/,
  upstreamReference: /functions\/upstream never imports the reference upstream/,
  referenceLib: /functions\/reference never imports src\/lib/,
  libOutside: /src\/lib imports only src\/lib/,
  libFramework: /src\/lib is framework-free/,
  scriptsReact: /src\/scripts are plain page scripts: no React/,
};

/** [file, import, the rule's message] */
const REFUSED: [string, string, RegExp][] = [
  ['src/components/seat/Probe.astro', '../../../functions/env', MESSAGES.uiWorker],
  ['src/components/ticket/probe.ts', '../../../functions/upstream/calls/tickets', MESSAGES.uiWorker],
  ['src/islands/Probe.tsx', '../../functions/api/register', MESSAGES.uiWorker],
  ['src/stores/probe.ts', '../../functions/upstream', MESSAGES.uiWorker],
  ['src/pages/[route]/probe.astro', '../../../functions/env', MESSAGES.uiWorker],
  ['src/layouts/Probe.astro', '../../functions/app', MESSAGES.uiWorker],
  ['src/components/seat/Probe.astro', 'cloudflare:workers', MESSAGES.workersModule],
  ['src/islands/probe.ts', 'cloudflare:workers', MESSAGES.workersModule],
  ['src/pages/probe.astro', 'cloudflare:workers', MESSAGES.workersModule],
  ['src/i18n/probe.ts', 'cloudflare:workers', MESSAGES.workersModule],
  ['functions/api/probe.ts', '../../src/islands/seat-types', MESSAGES.apiIslands],
  ['functions/upstream/probe.ts', '../reference', MESSAGES.upstreamReference],
  ['functions/upstream/calls/probe.ts', '../../reference/calls/tickets', MESSAGES.upstreamReference],
  ['functions/reference/probe.ts', '../../src/lib/tickets/tickets', MESSAGES.referenceLib],
  ['functions/reference/calls/probe.ts', '../../../src/lib/seat/health', MESSAGES.referenceLib],
  ['functions/reference/probe.ts', '../../src/lib', MESSAGES.referenceLib],
  ['functions/reference/probe.ts', '../../src/lib/contracts', MESSAGES.referenceLib],
  ['src/lib/util/probe.ts', '../../../functions/env', MESSAGES.libOutside],
  ['src/lib/util/probe.ts', 'hono', MESSAGES.libFramework],
  ['src/lib/util/probe.ts', 'cloudflare:workers', MESSAGES.libFramework],
  ['src/scripts/probe.ts', '../../functions/upstream', MESSAGES.uiWorker],
  ['src/scripts/probe.ts', 'cloudflare:workers', MESSAGES.workersModule],
  ['src/scripts/probe.ts', 'react', MESSAGES.scriptsReact],
  ['src/scripts/probe.ts', 'react-dom/client', MESSAGES.scriptsReact],
  ['src/scripts/probe.ts', '../islands/LookupForm', MESSAGES.scriptsReact],
  ['src/scripts/probe.ts', '../islands/lookup-islands', MESSAGES.scriptsReact],
];

/** [file, import]: the same folders' allowed imports. */
const ALLOWED: [string, string][] = [
  ['src/middleware.ts', 'cloudflare:workers'],
  ['src/middleware.ts', '../functions/env'],
  ['functions/limits/probe.ts', 'cloudflare:workers'],
  ['src/components/seat/Probe.astro', '../../lib/seat/pledge'],
  ['src/islands/Probe.tsx', '../lib/util/ids'],
  ['src/stores/probe.ts', 'nanostores'],
  ['functions/api/probe.ts', '../../src/lib/seat/seats'],
  ['functions/upstream/probe.ts', './contract'],
  ['functions/reference/probe.ts', '../../src/lib/contract'],
  ['functions/reference/calls/probe.ts', '../../../src/lib/contract/tickets'],
  ['src/lib/seat/probe.ts', '../util/signer'],
  ['src/scripts/probe.ts', '../lib/form/validation'],
  ['src/scripts/probe.ts', '../islands/call'],
  ['src/scripts/probe.ts', '../stores/toast'],
];

/** The `no-restricted-syntax` messages ESLint gives each `import()` form of `from` in the file at `path`. */
async function dynamicRefusals(path: string, from: string): Promise<{ expression: string[]; type: string[] }> {
  const astro = path.endsWith('.astro');
  const expression = astro ? `---\nconst x = await import('${from}');\nconsole.log(x);\n---\n<p>x</p>\n` : `export const x = () => import('${from}');\n`;
  const type = astro ? `---\ntype X = import('${from}').X;\nconst x: X | null = null;\nconsole.log(x);\n---\n<p>x</p>\n` : `export type X = import('${from}').X;\n`;
  const messagesOf = async (code: string) => {
    const [result] = await eslint.lintText(code, { filePath: resolve(path) });
    expect(result?.messages.filter((m) => m.fatal === true || m.ruleId === null)).toEqual([]);
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };
  return { expression: await messagesOf(expression), type: await messagesOf(type) };
}

describe('eslint.config.js import boundaries', () => {
  it.each(REFUSED)('%s may not import %s', async (path, from, message) => {
    const found = await refusals(path, from);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  }, SLOW_MS);

  it.each(ALLOWED)('%s may import %s', async (path, from) => {
    expect(await refusals(path, from)).toEqual([]);
  }, SLOW_MS);

  // A lazy `import()` or an `import('…').T` type crosses the same boundary (issue 32 review).
  it.each(REFUSED)('%s may not import() %s either', async (path, from, message) => {
    const { expression, type } = await dynamicRefusals(path, from);
    expect(expression).toHaveLength(1);
    expect(expression[0]).toMatch(message);
    expect(type).toHaveLength(1);
    expect(type[0]).toMatch(message);
  }, SLOW_MS);

  it.each(ALLOWED)('%s may import() %s', async (path, from) => {
    expect(await dynamicRefusals(path, from)).toEqual({ expression: [], type: [] });
  }, SLOW_MS);

  it('refuses type-only imports and re-exports too (the reply types are the usual crossing)', async () => {
    const [typeImport] = await eslint.lintText("import type { X } from '../../src/islands/seat-types';\nexport type Y = X;\n", {
      filePath: resolve('functions/api/probe.ts'),
    });
    const [reExport] = await eslint.lintText("export type { RegisterReply } from '../../functions/api/register';\n", {
      filePath: resolve('src/islands/probe-types.ts'),
    });
    for (const r of [typeImport, reExport]) expect(r?.messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
  }, SLOW_MS);
});
