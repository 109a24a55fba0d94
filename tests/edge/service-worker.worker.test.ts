/** `GET /sw.js` in workerd (issue 13 offline): the script with its own narrow CSP, never stored long. */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { SW_SCRIPT } from '../../functions/service-worker';

const app = createApp();
const get = (path: string, init: RequestInit = {}) => app.request(`https://expo.example${path}`, init, env as unknown as AppEnv);

describe('GET /sw.js', () => {
  it('answers the worker script, no-cache, with a CSP that lets it fetch this site only', async () => {
    const res = await get('/sw.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; connect-src 'self'");
    expect(await res.text()).toBe(SW_SCRIPT);
  });
  it('HEAD has no body; POST is not the script', async () => {
    const head = await get('/sw.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect((await get('/sw.js', { method: 'POST' })).status).not.toBe(200);
  });
});
