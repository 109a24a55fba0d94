/**
 * The screens' table is whole (issue 32): every route of src/lib/core/routes.ts leads to a
 * screen declared in src/lib/screens/index.ts SCREENS (under its own name), every declared
 * screen is reached by a route, and every component a declaration names is a file that
 * src/components/screens/Screen.astro finds. Adding a screen without one of these fails here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchRoute, ROUTE_NAMES, type RouteMatch } from '../../src/lib/core/routes';
import { SCREENS } from '../../src/lib/screens';

/** Tails that fit each route family's parameters: lookups, credentials, bus links, the gate, a channel, none. */
const TAILS = ['', '/21308/MTMwOA/visitor', '/MjEzMDg/QUJD/MTMwOA/21308', '/MjEzMDg/QUJD/MTMwOA/21308/7', '/MTMwOA', '/MTMwOA/stats', '/7001'];

/** Every match the routes give for some path (each route name must give one). */
function everyMatch(): { byName: Map<string, RouteMatch[]>; all: RouteMatch[] } {
  const byName = new Map<string, RouteMatch[]>();
  for (const name of [...ROUTE_NAMES, '21308']) {
    const found = name === '21308' ? [matchRoute('/21308/MTMwOA/visitor')].flatMap((m) => m ?? []) : TAILS.flatMap((tail) => matchRoute(`/${name}${tail}`) ?? []);
    byName.set(name, found);
  }
  return { byName, all: [...byName.values()].flat() };
}

describe('the screens table', () => {
  const { byName, all } = everyMatch();
  const table: Record<string, { name: string; components: Record<string, string>; prepare: object }> = SCREENS;

  it('every route name answers some path (so the checks below see all of them)', () => {
    expect([...byName].filter(([, matches]) => matches.length === 0).map(([name]) => name)).toEqual([]);
  });

  it("every route's screen has a row, under its own name", () => {
    const missing = all.filter((m) => !Object.hasOwn(table, m.screen) || table[m.screen]?.name !== m.screen).map((m) => m.screen);
    expect([...new Set(missing)]).toEqual([]);
  });

  it('every row is reached by a route', () => {
    const reached = new Set(all.map((m) => m.screen));
    expect(Object.keys(table).filter((name) => !reached.has(name as RouteMatch['screen']))).toEqual([]);
  });

  it('every component a row names is a file Screen.astro finds', () => {
    const screenFile = readFileSync('src/components/screens/Screen.astro', 'utf8');
    expect(screenFile).toContain("'./*Screen.astro'");
    const named = Object.values(table).flatMap((row) => Object.values(row.components));
    expect(named.filter((name) => !/^\w+Screen$/.test(name) || name === 'Screen' || !existsSync(`src/components/screens/${name}.astro`))).toEqual([]);
  });

  it('a screen whose components ask the pipeline for a pledge ticket or wallet links declares it (else its page fails at run time)', () => {
    const asks = { pledgeTicket: /\bpage\.pledgeTicket\(/, wallet: /\bpage\.wallet\(/ } as const;
    const undeclared: string[] = [];
    for (const row of Object.values(table)) {
      const files = new Set<string>();
      const walk = (file: string) => {
        if (files.has(file) || !existsSync(file)) return;
        files.add(file);
        for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+\.astro)'/g)) walk(resolve(dirname(file), m[1] ?? ''));
      };
      for (const name of Object.values(row.components)) walk(resolve(`src/components/screens/${name}.astro`));
      const text = [...files].map((f) => readFileSync(f, 'utf8')).join('\n');
      for (const [step, re] of Object.entries(asks)) if (re.test(text) && !(step in row.prepare)) undeclared.push(`${row.name}: ${step}`);
    }
    expect(undeclared).toEqual([]);
  });
});
