import { describe, expect, it } from 'vitest';
import { decodeId, decodeNumericId, encodeId } from '../../src/lib/util/ids';

describe('ids (DESIGN.md "Ids in URLs")', () => {
  it('encodes as base64url without padding', () => {
    expect(encodeId(1308)).toBe('MTMwOA');
    expect(encodeId('10542')).toBe('MTA1NDI');
  });

  it.each([1108, 1308, 10542, 8811, '3fK9_x-Q', '展会'])('round-trips %s', (id) => {
    expect(decodeId(encodeId(id))).toBe(String(id));
  });

  it('accepts standard base64 with padding and plain decimals (older links)', () => {
    expect(decodeId('MTMwOA==')).toBe('1308');
    expect(decodeId('1308')).toBe('1308');
  });

  it.each([undefined, null, '', '   ', '!!!', 'A', 'AAAA'])('rejects %s', (bad) => {
    expect(decodeId(bad)).toBeNull();
  });

  it('decodes numeric ids only when positive decimals', () => {
    expect(decodeNumericId('MTMwOA')).toBe(1308);
    expect(decodeNumericId(encodeId('abc'))).toBeNull();
    expect(decodeNumericId(encodeId('0'))).toBeNull();
  });
});
