import { describe, expect, it } from 'vitest';
import { inputId, shownErrors } from '../../src/lib/form/errors';
import { parseFormDefinition } from '../../src/lib/form/schema';

const L = (en: string) => ({ en, zh: en });
const { fields } = parseFormDefinition([
  { key: 'uname', type: 'text', required: true, label: L('Name') },
  { key: 'phone', type: 'phone', label: L('Phone') },
  { key: 'way', type: 'radio', required: true, label: L('Way'), options: [{ value: 'web', label: L('Web') }] },
  { key: 'purpose', type: 'checkbox', required: true, label: L('Purpose'), options: [{ value: 'a', label: L('A') }], other: true },
  { key: 'privacy', type: 'privacy', label: L('I agree') },
]);
const t = (k: string) => `T(${k})`;

describe('a no-JS refusal shown whole (issue 14)', () => {
  it('gives each failing field its own message, in form order, with the input to link to', () => {
    const shown = shownErrors(
      fields,
      [
        { field: 'privacy', key: 'form.privacy', text: null },
        { field: 'uname', key: 'form.supplement', text: null },
        { field: 'phone.areaCode', key: 'search.selectCountry', text: null },
        { field: 'way', key: 'form.supplement', text: null },
        { field: 'purpose.other', key: 'form.otherOptions', text: null },
      ],
      t,
    );
    expect(shown).toEqual([
      { field: 'uname', name: 'uname', message: 'T(form.supplement)', anchor: 'f-uname' },
      { field: 'phone', name: 'phone.areaCode', message: 'T(search.selectCountry)', anchor: 'f-phone-areaCode' },
      { field: 'way', name: 'way', message: 'T(form.supplement)', anchor: 'f-way-0' },
      { field: 'purpose', name: 'purpose.other', message: 'T(form.otherOptions)', anchor: 'f-purpose-other' },
      { field: 'privacy', name: 'privacy', message: 'T(form.privacy)', anchor: 'f-privacy' },
    ]);
  });

  it("shows the server's own text, one message per field, and drops names of no field", () => {
    const shown = shownErrors(
      fields,
      [
        { field: 'uname', key: null, text: 'Too long' },
        { field: 'uname', key: 'form.supplement', text: null },
        { field: 'nosuch', key: 'form.supplement', text: null },
      ],
      t,
    );
    expect(shown).toEqual([{ field: 'uname', name: 'uname', message: 'Too long', anchor: 'f-uname' }]);
  });

  it('makes ids safe for a URL fragment', () => {
    expect(inputId('purpose.__other')).toBe('f-purpose-__other');
    expect(inputId('a b"c')).toBe('f-a-b-c');
  });
});
