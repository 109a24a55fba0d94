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
    const refused = { code: 502, msg: 'upstream down', data: null };
    expect(readReply(refused)).toEqual({ kind: 'answer', envelope: refused });
  });
  it('the organiser’s API without the check-in calls is said as such, not as a refused scan', () => {
    expect(readReply({ code: 501, msg: 'cannot record entries yet', data: null })).toEqual({ kind: 'unsupported' });
  });
});
