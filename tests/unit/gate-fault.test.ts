/**
 * What the organiser's check-in calls answered, told apart (src/lib/gate/fault.ts, issue 30): a
 * decision, a refusal of the scan, an API without the calls, or a system that did not answer as
 * expected (with the reason in words). Nothing here is ever "the staff key is gone".
 */
import { describe, expect, it } from 'vitest';
import { faultOfError, faultReason, readCall, type GateFault } from '../../src/lib/gate/fault';
import { UpstreamError, type UpstreamErrorKind } from '../../functions/upstream/errors';
import { MESSAGES } from '../../src/i18n';

describe('faultOfError: every transport fault of the upstream client', () => {
  it.each<[UpstreamErrorKind, number | undefined, GateFault]>([
    ['http', 404, { kind: 'http', status: 404 }],
    ['http', 403, { kind: 'http', status: 403 }],
    ['http', 405, { kind: 'http', status: 405 }],
    ['http', 500, { kind: 'http', status: 500 }],
    ['http', 503, { kind: 'http', status: 503 }],
    ['timeout', undefined, { kind: 'timeout' }],
    ['network', undefined, { kind: 'network' }],
    ['not-json', undefined, { kind: 'unreadable' }],
    ['bad-data', undefined, { kind: 'unreadable' }],
    ['no-key', undefined, { kind: 'unreadable' }],
  ])('%s %s', (kind, status, want) => {
    const e = new UpstreamError(kind, 'x', { path: '/customFrom/redeemCode', ...(status !== undefined ? { status } : {}) });
    expect(faultOfError(e)).toEqual(want);
  });

  it('anything else reads as unreadable', () => {
    expect(faultOfError(null)).toEqual({ kind: 'unreadable' });
    expect(faultOfError({ kind: 'http' })).toEqual({ kind: 'unreadable' });
  });
});

describe('readCall', () => {
  it('a success is a decision; 404 "unknown call" is an API without the calls', () => {
    expect(readCall({ ok: true, code: 200, msg: null, data: 1 })).toEqual({ kind: 'decided', data: 1 });
    expect(readCall({ ok: false, kind: 'refused', code: 404, msg: 'unknown call' }, true)).toEqual({ kind: 'unsupported' });
  });

  it('400 refuses the scan (redeemCode only); any other code is a fault', () => {
    expect(readCall({ ok: false, kind: 'refused', code: 400, msg: 'too old' }, true)).toEqual({ kind: 'refusedScan', code: 400, msg: 'too old' });
    expect(readCall({ ok: false, kind: 'refused', code: 400, msg: 'bad page' })).toEqual({ kind: 'fault', fault: { kind: 'refused', code: 400, msg: 'bad page' } });
    for (const code of [500, 600, 201001, -1]) expect(readCall({ ok: false, kind: 'refused', code, msg: null }, true)).toEqual({ kind: 'fault', fault: { kind: 'refused', code, msg: null } });
    expect(readCall({ ok: false, fault: { kind: 'timeout' } }, true)).toEqual({ kind: 'fault', fault: { kind: 'timeout' } });
  });
});

describe('faultReason: the reason in words, in every language', () => {
  it('names the status or code, and the organiser’s own message cut short', () => {
    expect(faultReason({ kind: 'http', status: 404 })).toEqual({ key: 'gate.faultHttp', vars: { status: 404 } });
    expect(faultReason({ kind: 'refused', code: 600, msg: null })).toEqual({ key: 'gate.faultRefused', vars: { code: 600 } });
    const long = faultReason({ kind: 'refused', code: 600, msg: `  busy\n${'x'.repeat(500)}` });
    expect(long.key).toBe('gate.faultRefusedMsg');
    expect(String(long.vars['msg'])).toMatch(/^busy x+$/);
    expect(String(long.vars['msg']).length).toBe(200);
  });

  it('every reason has its words, with its placeholders, in all seven languages', () => {
    const faults: GateFault[] = [{ kind: 'http', status: 404 }, { kind: 'timeout' }, { kind: 'network' }, { kind: 'unreadable' }, { kind: 'refused', code: 600, msg: null }, { kind: 'refused', code: 600, msg: 'm' }];
    for (const [lang, m] of Object.entries(MESSAGES)) {
      for (const f of faults) {
        const { key, vars } = faultReason(f);
        const text = (m as Record<string, string>)[key] ?? '';
        expect(text, `${lang} ${key}`).not.toBe('');
        for (const v of Object.keys(vars)) expect(text, `${lang} ${key} {{${v}}}`).toContain(`{{${v}}}`);
      }
    }
  });
});
