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

describe('Permissions-Policy by screen (the gate scanner)', () => {
  it('the gate screen allows the camera and the screen wake lock to this origin, nothing else', async () => {
    const { screenPermissionsPolicy } = await import('../../src/lib/page/permissions-policy');
    const p = parse(screenPermissionsPolicy('gate') ?? '');
    expect(p.get('camera')).toBe('(self)');
    expect([...p.entries()].filter(([, v]) => v !== '()').map(([k]) => k)).toEqual(['camera', 'screen-wake-lock']);
  });
  it('other screens, and names inherited from Object, get none of their own', async () => {
    const { screenPermissionsPolicy } = await import('../../src/lib/page/permissions-policy');
    expect(screenPermissionsPolicy('success')).toBeNull();
    expect(screenPermissionsPolicy('toString')).toBeNull();
  });
});
