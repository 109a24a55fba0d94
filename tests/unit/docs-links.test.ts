/**
 * The README and docs/ stay inside the repository and are titled by subject (issue 32): every
 * link resolves to a file of the repository (and its anchor to a heading there), none leaves it
 * (a web link only to the local server), and no heading names an issue number.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const PAGES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];

/** A page's text without fenced code blocks and inline code (where brackets are code, not links). */
export function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The headings of a markdown text (outside code blocks). */
export function headings(text: string): string[] {
  return [...text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1] ?? '');
}

/** Every link target of a page: `[text](target)` and `<scheme://…>` autolinks. */
export function links(text: string): string[] {
  const p = prose(text);
  return [
    ...[...p.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? ''),
    ...[...p.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi)].map((m) => m[1] ?? ''),
  ];
}

/** What is wrong with one link of `page`; null when it resolves inside the repository. */
export function linkProblem(page: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    return /^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/.test(target) ? null : `${target} leaves the repository`;
  }
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? resolve(page) : resolve(dirname(page), decodeURIComponent(path));
  if (relative(ROOT, file).startsWith('..')) return `${target} leaves the repository`;
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor !== undefined && anchor !== '') {
    if (statSync(file).isDirectory() || !file.endsWith('.md'))
      return `${target}: an anchor into a file without headings`;
    if (!headings(readFileSync(file, 'utf8')).map(slug).includes(anchor)) return `${target}: no heading #${anchor}`;
  }
  return null;
}

describe('README and docs/ link only inside the repository', () => {
  it('the README is a front door: at most 250 lines', () => {
    expect(readFileSync('README.md', 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it.each(PAGES)('%s: every link resolves to a file of the repository', (page) => {
    const text = readFileSync(page, 'utf8');
    expect(
      links(text)
        .map((l) => linkProblem(page, l))
        .filter((p) => p !== null),
    ).toEqual([]);
  });

  it.each(PAGES)('%s: no heading names an issue number', (page) => {
    expect(headings(readFileSync(page, 'utf8')).filter((h) => /\bissues?\s*#?\d|#\d+/i.test(h))).toEqual([]);
  });

  it('the checks find what they look for', () => {
    expect(links('see [a](docs/a.md) and <https://x.example/> but not `[b](c)`\n```\n[d](e)\n```\n')).toEqual([
      'docs/a.md',
      'https://x.example/',
    ]);
    expect(linkProblem('README.md', '../shared/DESIGN.md')).toMatch(/leaves the repository/);
    expect(linkProblem('README.md', 'https://developers.cloudflare.com/')).toMatch(/leaves the repository/);
    expect(linkProblem('README.md', 'http://127.0.0.1:8787/dev/outbox')).toBeNull();
    expect(linkProblem('README.md', 'docs/nothing.md')).toMatch(/no such file/);
    expect(linkProblem('docs/deploy.md', 'gate.md#links-keys-and-answers')).toBeNull();
    expect(linkProblem('docs/deploy.md', 'gate.md#the-gate-of-issue-7')).toMatch(/no heading/);
    expect(slug('3. The layout of `wrangler.toml`')).toBe('3-the-layout-of-wranglertoml');
    expect(
      headings('# A\n```\n# not\n```\n## Tickets and orders (issue 11)\n').filter((h) => /\bissues?\s*#?\d/i.test(h)),
    ).toHaveLength(1);
  });
});
