import { Hono } from 'hono';
import type { AppEnv } from './env';
import { api } from './api';
import reference from './reference';
import { guard } from './middleware/guard';
import { securityHeaders } from './middleware/security-headers';

/**
 * The Worker's Hono app without the Astro pages: security headers, the edge API and the
 * reference upstream. functions/worker.ts adds Astro; tests in workerd call this directly.
 */
export function createApp(): Hono<{ Bindings: AppEnv }> {
  const app = new Hono<{ Bindings: AppEnv }>();
  app.use(securityHeaders());
  app.route('/api', api);
  // The reference upstream answers the legacy API over HTTP too (/custom/*, /wx/*, and the
  // development outbox /dev/* while it is on), so any client of that API can use it.
  app.route('/', reference);
  // Page requests only (everything above answered its own paths): the navigation guard of
  // spec §4 before Astro renders (functions/worker.ts adds Astro after this app).
  app.use(guard());
  return app;
}
