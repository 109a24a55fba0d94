import { describe, expect, it } from 'vitest';
import { contactParts } from '../../src/lib/util/break-points';

describe('contactParts: where a long contact may break (issue 23 review)', () => {
  it('after @ and before each dot; the parts join back to the address', () => {
    const mail = 'visitor-registration@bangkok-international-trade-expo.example';
    expect(contactParts(mail)).toEqual(['visitor-registration@', 'bangkok-international-trade-expo', '.example']);
    expect(contactParts('first.last@mail.example.co')).toEqual(['first', '.last@', 'mail', '.example', '.co']);
    for (const text of [mail, 'a@b', '.x@@y..z', '']) expect(contactParts(text).join('')).toBe(text);
  });
  it('a text without either is one part', () => {
    expect(contactParts('+66 2 749 3939')).toEqual(['+66 2 749 3939']);
  });
});
