import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 24: the registration form page loads no React (React's chunk alone is about 67 KB gzip,
 * the page's budget 70). Its plain script and everything it imports, followed file by file, never
 * import React or a React island; one such import would put the React chunk back on every such
 * page (astro.config.mjs keeps React in a chunk of its own). The lookup form is React islands
 * since issue 31 (budget 80 KB): tests/e2e/budgets.spec.ts measures it.
 */
function importsOf(file: string): { local: string[]; packages: string[] } {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^import\s+(?!type\b)[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? '');
  const local: string[] = [];
  for (const s of specs.filter((x) => x.startsWith('.'))) {
    const base = relative(process.cwd(), resolve(dirname(file), s)).replace(/\\/g, '/');
    const found = [base, `${base}.ts`, `${base}.tsx`].find((p) => {
      try {
        return readFileSync(p) && /\.(ts|tsx)$/.test(p);
      } catch {
        return false;
      }
    });
    if (found) local.push(found);
  }
  return { local, packages: specs.filter((x) => !x.startsWith('.')) };
}

function closure(entry: string): { files: string[]; packages: string[] } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop() as string;
    if (seen.has(f)) continue;
    seen.add(f);
    const { local, packages: p } = importsOf(f);
    p.forEach((x) => packages.add(x));
    todo.push(...local);
  }
  return { files: [...seen].sort(), packages: [...packages].sort() };
}

/** Each page's script, and files its import walk must reach (proof that the walk follows imports). */
const SCRIPTS = [
  {
    page: 'the registration form',
    entry: 'src/scripts/form-enhance.ts',
    reaches: [
      'src/lib/form/validation.ts',
      'src/islands/form-dom.ts',
      'src/islands/call.ts',
      'src/scripts/toast-host.ts',
      'src/stores/toast.ts',
    ],
  },
];

for (const { page, entry, reaches } of SCRIPTS) {
  describe(`${page}'s script loads no React`, () => {
    const { files, packages } = closure(entry);
    it('follows its imports', () => {
      expect(files).toEqual(expect.arrayContaining(reaches));
    });
    it('no React package, no React island (.tsx)', () => {
      expect(packages.filter((p) => /(^|\/)react(-dom)?(\/|$)/.test(p))).toEqual([]);
      expect(files.filter((f) => f.endsWith('.tsx'))).toEqual([]);
    });
  });
}
