/**
 * The request log's line (src/lib/ops/request-log.ts, issue 24): Ray ID, method, route pattern,
 * status, duration, upstream calls; never a URL, a code or a contact.
 */
import { describe, expect, it } from 'vitest';
import { rayId, requestLogLine, routeLabel, type RequestFacts } from '../../src/lib/ops/request-log';

const FACTS: RequestFacts = { rayHeader: '8f1b2c3d4e5f6a7b-SIN', method: 'post', routes: ['/api/lookup'], pageScreen: null, status: 200, ms: 12.4, upstream: 2 };

describe('requestLogLine', () => {
  it('writes the fields of issue 24', () => {
    expect(requestLogLine(FACTS)).toEqual({ type: 'request', ray: '8f1b2c3d4e5f6a7b-SIN', method: 'POST', route: '/api/lookup', status: 200, ms: 12, upstream: 2 });
  });

  it('writes a method it does not know as OTHER', () => {
    expect(requestLogLine({ ...FACTS, method: 'a@b.example' }).method).toBe('OTHER');
  });
});

describe('rayId', () => {
  it('keeps a Ray ID and drops anything else a client may send', () => {
    expect(rayId('8f1b2c3d4e5f6a7b')).toBe('8f1b2c3d4e5f6a7b');
    expect(rayId(undefined)).toBeNull();
    expect(rayId('')).toBeNull();
    expect(rayId('one@demo.test')).toBeNull();
    expect(rayId('8f1b2c3d4e5f6a7b-SIN; x=13800138000')).toBeNull();
  });
});

describe('routeLabel', () => {
  it('is the last method-specific pattern that matched', () => {
    expect(routeLabel(['/api/health', '/api/health/:id'], null)).toBe('/api/health/:id');
  });

  it('is the page screen when no API route matched, and null when nothing did', () => {
    expect(routeLabel([], 'credential')).toBe('page:credential');
    expect(routeLabel(['*'], 'search')).toBe('page:search');
    expect(routeLabel([], null)).toBeNull();
  });

  it('never writes something that is not a pattern', () => {
    expect(routeLabel(['/api/x?to=one@demo.test'], null)).toBeNull();
    expect(routeLabel(['not a path'], null)).toBeNull();
    expect(routeLabel([], 'one@demo.test')).toBeNull();
  });
});
