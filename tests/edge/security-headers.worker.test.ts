/**
 * The Worker's security-headers middleware (functions/middleware/security-headers.ts) in
 * workerd, issue 9: the default Permissions-Policy on every response unless a page set its
 * own (the camera form), and a closed Cache-Control on HTML that carries none. The headers of
 * the real pages, which Astro renders only in the built Worker, are checked through it by
 * tests/e2e/page-headers.spec.ts.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../../functions/middleware/security-headers';
import { CAMERA_PERMISSIONS_POLICY, DEFAULT_PERMISSIONS_POLICY } from '../../src/lib/page/permissions-policy';

const app = new Hono();
app.use(securityHeaders());
app.get('/plain-page', (c) => c.html('<p>no policy set</p>'));
app.get('/public-page', (c) =>
  c.html('<p>public</p>', 200, { 'cache-control': 'private, max-age=0, must-revalidate' }),
);
app.get('/camera-page', (c) =>
  c.html('<p>camera</p>', 200, {
    'cache-control': 'private, no-store',
    'permissions-policy': CAMERA_PERMISSIONS_POLICY,
  }),
);
app.get('/data.json', (c) => c.json({ ok: true }));
app.get('/api/thing', (c) => c.html('<p>api html</p>', 200, { 'cache-control': 'public, max-age=600' }));

const get = (path: string) => app.request(`https://expo.example${path}`);

describe('Permissions-Policy on every response (issue 9 §2)', () => {
  it.each(['/plain-page', '/public-page', '/data.json', '/api/thing', '/no-such-route'])(
    '%s: the default',
    async (path) => {
      expect((await get(path)).headers.get('permissions-policy')).toBe(DEFAULT_PERMISSIONS_POLICY);
    },
  );

  it("a page's own policy (the camera form) is kept", async () => {
    expect((await get('/camera-page')).headers.get('permissions-policy')).toBe(CAMERA_PERMISSIONS_POLICY);
  });
});

describe('Cache-Control fallback (issue 9 §1)', () => {
  it('HTML without a policy is never stored', async () => {
    expect((await get('/plain-page')).headers.get('cache-control')).toBe('private, no-store');
  });

  it("a page's own policy is kept", async () => {
    expect((await get('/public-page')).headers.get('cache-control')).toBe('private, max-age=0, must-revalidate');
    expect((await get('/camera-page')).headers.get('cache-control')).toBe('private, no-store');
  });

  it('the API is no-store whatever it set', async () => {
    expect((await get('/api/thing')).headers.get('cache-control')).toBe('no-store');
  });

  it('non-HTML replies outside the no-store prefixes get none added', async () => {
    expect((await get('/data.json')).headers.get('cache-control')).toBeNull();
  });
});
