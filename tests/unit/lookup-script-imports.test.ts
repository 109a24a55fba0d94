import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 24: a lookup page loads no React (React's chunk alone is about 67 KB gzip, the page's
 * budget 70). Its script (src/scripts/lookup-enhance.ts) and everything it imports, followed
 * file by file, never import React or a React island; one such import would put the React chunk
 * back on every lookup page (astro.config.mjs keeps React in a chunk of its own).
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

describe('the lookup form\'s script loads no React', () => {
  const { files, packages } = closure('src/scripts/lookup-enhance.ts');
  it('follows its imports (the rules, the picker, the sheet, the countdown, the toast)', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'src/lib/lookup/validation.ts',
        'src/lib/form/countries.ts',
        'src/islands/call.ts',
        'src/islands/session.ts',
        'src/scripts/country-picker.ts',
        'src/scripts/sheet.ts',
        'src/scripts/toast-host.ts',
        'src/stores/lookup.ts',
        'src/stores/toast.ts',
      ]),
    );
  });
  it('no React package, no React island (.tsx)', () => {
    expect(packages.filter((p) => /(^|\/)react(-dom)?(\/|$)/.test(p))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.tsx'))).toEqual([]);
  });
});
