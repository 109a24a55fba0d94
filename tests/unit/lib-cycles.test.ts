/**
 * src/lib's folders form no import cycle (issue 32): the ground (src/lib/core: languages, labels,
 * the route table and the tables it reads) sits below the domain folders (expo, form, lookup,
 * seat, …), and the page pipeline's top (src/lib/page: guard, load) and the screens above them.
 * A cycle between folders means a folder is both ground and top; the test names the folders
 * and one import of each edge, so the move that breaks it is plain. Reads the source's import
 * lines (static, re-exports and dynamic `import()`), type-only imports included: a type still
 * ties two folders together.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const LIB = resolve('src/lib');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The folder (or top-level file, without extension) of src/lib a path lies in. */
const folderOf = (path: string): string => relative(LIB, path).split('/')[0]!.replace(/\.tsx?$/, '');

/** Folder → folder edges, each with the first import that makes it. */
function folderEdges(files: readonly { path: string; text: string }[]): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const { path, text } of files) {
    for (const m of text.matchAll(/(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)) {
      const target = resolve(dirname(path), m[1] ?? m[2]!);
      if (!target.startsWith(`${LIB}/`)) continue;
      const [from, to] = [folderOf(path), folderOf(target)];
      if (from === to) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${relative(LIB, path)} imports ${m[1] ?? m[2]}`);
      edges.set(from, out);
    }
  }
  return edges;
}

/** The strongly connected components of more than one folder (Tarjan). */
function cycles(edges: Map<string, Map<string, string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])) if (!index.has(v)) visit(v);
  return found;
}

describe('src/lib folder cycles', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const at = (p: string) => join(LIB, p);
    const edges = folderEdges([
      { path: at('page/guard.ts'), text: "import { x } from '../expo/config-apply';" },
      { path: at('expo/home.ts'), text: "import type { RouteMatch } from '../page/routes';" },
      { path: at('form/page.ts'), text: "const m = await import('../page/load');" },
      { path: at('util/ids.ts'), text: "export { y } from './base64url';" },
    ]);
    expect(cycles(edges)).toEqual([['expo', 'page']]);
  });

  it('src/lib has none', () => {
    const edges = folderEdges(sources(LIB).map((path) => ({ path, text: readFileSync(path, 'utf8') })));
    const found = cycles(edges).map((c) => ({ folders: c, edges: c.flatMap((a) => c.flatMap((b) => edges.get(a)?.get(b) ?? [])) }));
    expect(found).toEqual([]);
  });
});
