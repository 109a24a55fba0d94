import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CAMERA_PERMISSIONS_POLICY,
  DEFAULT_PERMISSIONS_POLICY,
  DENIED_FEATURES,
  permissionsPolicy,
} from '../../src/lib/page/permissions-policy';

/** The header as a map feature → allowlist. */
function parse(value: string): Map<string, string> {
  return new Map(value.split(',').map((part) => part.trim().split('=') as [string, string]));
}

describe('Permissions-Policy (issue 9 §2)', () => {
  it('denies every powerful feature by default, camera and microphone included', () => {
    const p = parse(DEFAULT_PERMISSIONS_POLICY);
    for (const f of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid']) {
      expect(p.get(f), f).toBe('()');
    }
    expect([...p.values()].every((v) => v === '()')).toBe(true);
    expect(p.size).toBe(DENIED_FEATURES.length);
  });

  it('the camera page allows the camera to this origin only, and nothing else', () => {
    const p = parse(CAMERA_PERMISSIONS_POLICY);
    expect(p.get('camera')).toBe('(self)');
    for (const [f, v] of p) if (f !== 'camera') expect(v, f).toBe('()');
  });

  it('is a valid structured-field dictionary: name=() or name=(self), comma-separated', () => {
    expect(permissionsPolicy({ allowSelf: ['camera', 'microphone'] })).toMatch(
      /^[a-z-]+=\((?:self)?\)(?:, [a-z-]+=\((?:self)?\))*$/,
    );
  });

  it("public/_headers gives static files the same default (they never reach the Worker's middleware)", () => {
    const headers = readFileSync(new URL('../../public/_headers', import.meta.url), 'utf8');
    const line = headers.split('\n').find((l) => /^\s+Permissions-Policy:/i.test(l));
    expect(line?.replace(/^\s+Permissions-Policy:\s*/i, '').trim()).toBe(DEFAULT_PERMISSIONS_POLICY);
  });
});

describe('Permissions-Policy by screen (the declarations\' allow)', () => {
  const gateBase = { expoId: 1308, eid: 'MTMwOA', gate: 'G1', show: null, today: '2026-05-20' };
  it('the gate scanner allows the camera and the screen wake lock, nothing else; its stats none', async () => {
    const { gateScreen } = await import('../../src/lib/screens/gate');
    expect(gateScreen.allow?.({ kind: 'gate', ...gateBase, answer: null, unsupported: false, error: null, typed: '' })).toEqual(['camera', 'screen-wake-lock']);
    expect(gateScreen.allow?.({ kind: 'gateStats', ...gateBase, table: null, unsupported: false })).toEqual([]);
  });
  it('only the gate and the registration form (its camera) allow a feature', async () => {
    const { SCREENS } = await import('../../src/lib/screens');
    expect(Object.values(SCREENS).filter((s) => 'allow' in s).map((s) => s.name).sort()).toEqual(['form', 'gate']);
  });
});
