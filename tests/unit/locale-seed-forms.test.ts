/**
 * The demo seed's form definitions (functions/reference/seed/*.sql) speak every page language:
 * each field's question and each option of its industries, purposes and days carries all
 * seven texts, so a Thai, Vietnamese, Indonesian, Malay or Traditional Chinese page never falls
 * back to English or simplified Chinese (src/lib/form/fields.ts textOf). The posted values stay
 * what they were.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFormDefinition, textOf } from '../../src/lib/form/schema';
import { LANGS } from '../../src/lib/core/languages';

const SEED = join(__dirname, '../../functions/reference/seed');

/** Every form definition of the seed: the SQL string literals that hold a JSON array of fields. */
function seededForms(): { file: string; json: unknown }[] {
  const out: { file: string; json: unknown }[] = [];
  for (const file of readdirSync(SEED).filter((f) => f.endsWith('.sql'))) {
    const sql = readFileSync(join(SEED, file), 'utf8');
    for (const m of sql.matchAll(/'(\[\{"key":(?:[^']|'')*\}\])'/g)) out.push({ file, json: JSON.parse((m[1] ?? '').replace(/''/g, "'")) });
  }
  return out;
}

describe('seeded form options in all seven languages', () => {
  const forms = seededForms();

  it('finds the seed\'s forms', () => {
    expect(forms.length).toBeGreaterThan(20);
  });

  it('every label and option label has all seven languages (also of fields the product drops)', () => {
    type Raw = { key: string; label?: Record<string, string>; placeholder?: Record<string, string>; options?: { label: Record<string, string> }[] };
    const missing: string[] = [];
    for (const { file, json } of forms) {
      for (const f of json as Raw[]) {
        const texts = [f.label ?? {}, ...(f.options ?? []).map((o) => o.label), ...(f.placeholder ? [f.placeholder] : [])];
        for (const text of texts) {
          const lacking = LANGS.filter((l) => !text[l]);
          if (lacking.length > 0) missing.push(`${file} ${f.key} ${text.en ?? text.zh}: ${lacking.join(' ')}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('Thai texts are Thai, and a Thai page shows no English option', () => {
    for (const { file, json } of forms) {
      for (const f of parseFormDefinition(json).fields) {
        for (const o of f.options) {
          expect(textOf(o.label, 'thai'), `${file} ${f.key} ${o.value}`).not.toMatch(/[A-Za-z]/);
          expect(textOf(o.label, 'tw'), `${file} ${f.key} ${o.value}`).toBeTruthy();
        }
      }
    }
  });

  it('keeps the posted values (the upstream stores them as they were)', () => {
    const values = new Set(forms.flatMap(({ json }) => parseFormDefinition(json).fields.flatMap((f) => f.options.map((o) => o.value))));
    for (const v of ['Energy', 'Manufacturing', 'Trade', 'Food', 'Services', 'Sourcing', 'Networking', 'Learning']) expect(values.has(v), v).toBe(true);
  });
});
