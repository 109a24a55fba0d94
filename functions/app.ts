import { Hono } from 'hono';
import type { AppEnv } from './env';
import { api } from './api';
import { securityHeaders } from './middleware/security-headers';

/**
 * The Worker's Hono app without the Astro pages: security headers, the edge API and the
 * reference upstream. functions/worker.ts adds Astro; tests in workerd call this directly.
 */
export function createApp(): Hono<{ Bindings: AppEnv }> {
  const app = new Hono<{ Bindings: AppEnv }>();
  app.use(securityHeaders());
  app.route('/api', api);
  return app;
}
