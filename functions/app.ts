import { Hono, type ErrorHandler } from 'hono';
import type { AppEnv } from './env';
import { api } from './api';
import { qrImage } from './qr-image';
import { applePass } from './apple-pass';
import { serviceWorker } from './service-worker';
import { gatePages } from './gate';
import reference, { createReference } from './reference';
import { useLocalUpstream } from './upstream';
import { guard } from './middleware/guard';
import { securityHeaders } from './middleware/security-headers';
import { devFaces } from './middleware/dev-faces';

/**
 * An unexpected failure: the detail goes to the Worker log, the visitor gets a plain sentence,
 * never a stack trace or a file name.
 */
const onError: ErrorHandler = (err, c) => {
  console.error('unexpected failure', c.req.method, new URL(c.req.url).pathname, err);
  return c.json({ code: 500, msg: 'Something went wrong on our side. Please try again.', data: null }, 500);
};

/**
 * The Worker's Hono app without the Astro pages: security headers, the edge API and the
 * reference upstream. functions/worker.ts adds Astro; tests in workerd call this directly.
 */
export function createApp(): Hono<{ Bindings: AppEnv }> {
  // Without UPSTREAM_URL the upstream client speaks to the reference in-process; the app gives
  // it the reference, so the client never imports it.
  useLocalUpstream(createReference);
  const app = new Hono<{ Bindings: AppEnv }>();
  app.use(securityHeaders());
  app.onError(onError);
  app.route('/api', api);
  app.route('/qr', qrImage); // the credential's QR code as a PNG
  app.route('/pass', applePass); // the credential as an Apple Wallet pass
  app.route('/', serviceWorker); // GET /sw.js: offline credential pages
  // The staff link and the scans' CSV (README "The gate"); without a valid key, on to the not-found page.
  app.route('/', gatePages);
  // The reference upstream's HTTP face (/custom/*, /auth/*, /wx/*) and the development outbox (/dev/*)
  // answer only on local runs that turn them on (middleware/dev-faces.ts).
  for (const face of ['/custom/*', '/auth/*', '/wx/*', '/dev/*']) app.use(face, devFaces());
  app.route('/', reference);
  // Page requests only (everything above answered its own paths): the navigation guard of
  // spec §4 before Astro renders (functions/worker.ts adds Astro after this app).
  app.use(guard());
  return app;
}
