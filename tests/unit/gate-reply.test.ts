import { describe, expect, it } from 'vitest';
import { readReply } from '../../src/lib/gate/reply';

describe('readReply: one reading of a gate call’s reply for the scanner (issue 23 review)', () => {
  it('no answer: offline; the edge’s plain 404: the key is gone', () => {
    expect(readReply(null)).toEqual({ kind: 'offline' });
    expect(readReply('gone')).toEqual({ kind: 'keyGone' });
  });
  it('an envelope, refusals included, is the call’s to read', () => {
    const ok = { code: 200, msg: null, data: { rows: [] } };
    expect(readReply(ok)).toEqual({ kind: 'answer', envelope: ok });
    const refused = { code: 501, msg: 'no check-in call', data: null };
    expect(readReply(refused)).toEqual({ kind: 'answer', envelope: refused });
  });
});
