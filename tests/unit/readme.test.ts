import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The wallet links are described in docs/choices.md (the README is a front door: docs/ by subject).
const readme = readFileSync('docs/choices.md', 'utf8');

describe('docs/choices.md says each thing once and truly', () => {
  it('Apple Wallet passes are built (the /pass/….pkpass route), never "not built"', () => {
    expect(readme).toContain('`GET /pass/{urlId}/{euCode}/{expoId}/{fId}.pkpass`');
    expect(readme).not.toMatch(/Apple Wallet[^.\n]*not built/i);
    expect(readme).not.toMatch(/pkpass[^.\n]*not built/i);
  });

  it('the Google Wallet link is described in one place', () => {
    expect(readme.match(/Generic pass \(class and object in the JWT/g)).toHaveLength(1);
  });
});
