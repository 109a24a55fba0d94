import { describe, expect, it } from 'vitest';
import { readReply, replyOf } from '../../src/lib/gate/reply';

const NO_API = (path: string) => ({ error: `No API at ${path}` });

describe('replyOf: a gate call’s status and body as the scanner reads them (issue 30)', () => {
  it('the key is gone only on the edge’s own answer for a path it does not have, word for word', () => {
    expect(replyOf(404, NO_API('/api/gate/scan'), '/api/gate/scan')).toBe('gone');
    expect(replyOf(404, NO_API('/api/gate/list'), '/api/gate/list')).toBe('gone');
  });

  it.each([
    ['a 404 without a body (a proxy, a moved API)', 404, null],
    ['a 404 page that is not ours', 404, { error: 'Not Found' }],
    ['the 404 of another path', 404, NO_API('/api/other')],
    ['an object with more than the error', 404, { ...NO_API('/api/gate/scan'), detail: 'x' }],
    ['a platform 502', 502, null],
    ['a captive portal’s page', 200, null],
    ['a 403 of a firewall', 403, { error: 'Forbidden' }],
    ['a 405', 405, null],
  ])('%s is never the key gone, but the status', (_why, status, body) => {
    expect(replyOf(status, body, '/api/gate/scan')).toEqual({ status });
  });

  it('an envelope is the envelope, whatever the status', () => {
    expect(replyOf(200, { code: 200, msg: null, data: { result: 'admitted' } }, '/api/gate/scan')).toEqual({ code: 200, msg: null, data: { result: 'admitted' } });
    expect(replyOf(500, { code: 500, msg: 'oops', data: null }, '/api/gate/scan')).toEqual({ code: 500, msg: 'oops', data: null });
    expect(replyOf(200, { code: 400, msg: 7 }, '/api/gate/scan')).toEqual({ code: 400, msg: null, data: null });
  });
});

describe('readReply: one reading of a gate call’s reply for the scanner', () => {
  it('no answer: offline, nothing more to say; the edge’s own 404: the key is gone', () => {
    expect(readReply(null)).toEqual({ kind: 'offline', reason: null, envelope: null });
    expect(readReply('gone')).toEqual({ kind: 'keyGone' });
  });

  it('the organiser’s system not answering as expected: offline, with the edge’s reason in words', () => {
    const fault = { code: 502, msg: 'The organiser’s system answered HTTP 404 instead of a decision.', data: null };
    expect(readReply(fault)).toEqual({ kind: 'offline', reason: { text: fault.msg }, envelope: fault });
    // a sync's fault part-way still carries the scans answered before it
    const partial = { code: 502, msg: 'x', data: { results: [{ scanId: 'a' }] } };
    expect(readReply(partial)).toMatchObject({ kind: 'offline', envelope: partial });
  });

  it('an answer of the gate server that is not ours: offline, with its status said', () => {
    expect(readReply({ status: 404 })).toEqual({ kind: 'offline', reason: { key: 'gateScan.serverOdd', vars: { status: 404 } }, envelope: null });
    // our own failure (the app's 500, a 503 not ready): offline too, with its words
    expect(readReply({ code: 500, msg: 'Something went wrong', data: null })).toEqual({ kind: 'offline', reason: { text: 'Something went wrong' }, envelope: null });
  });

  it('a decision or a refusal of the scan is the call’s to read', () => {
    const ok = { code: 200, msg: null, data: { rows: [] } };
    expect(readReply(ok)).toEqual({ kind: 'answer', envelope: ok });
    const refused = { code: 400, msg: 'bad input: scannedAt is more than 30 days old', data: null };
    expect(readReply(refused)).toEqual({ kind: 'answer', envelope: refused });
  });

  it('the organiser’s API without the check-in calls is said as such, not as a refused scan', () => {
    expect(readReply({ code: 501, msg: 'cannot record entries yet', data: null })).toEqual({ kind: 'unsupported' });
  });
});
