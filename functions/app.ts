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
import { requestLog, type RequestLogOptions } from './middleware/request-log';
import { healthCheck, type HealthCheckOptions } from './healthz';
import { redactPath } from '../src/lib/ops/redact';

/**
 * An unexpected failure: the detail goes to the Worker log, the visitor gets a plain sentence,
 * never a stack trace or a file name. The log names the path redacted (src/lib/ops/redact.ts):
 * credential paths carry the registration code, gate links the staff key.
 */
const onError: ErrorHandler = (err, c) => {
  console.error('unexpected failure', c.req.method, redactPath(c.req.url), err);
  return c.json({ code: 500, msg: 'Something went wrong on our side. Please try again.', data: null }, 500);
};

/** Options of createApp. */
export interface AppOptions {
  /**
   * The request log (one JSON line per request, middleware/request-log.ts): on in the Worker
   * (functions/worker.ts), off unless given, so the workerd suites' output stays readable.
   */
  requestLog?: Partial<RequestLogOptions>;
  /** The health check's options (healthz.ts): tests inject the probe's fetch. */
  healthCheck?: Partial<HealthCheckOptions>;
}

/**
 * The Worker's Hono app without the Astro pages: security headers, the edge API and the
 * reference upstream. functions/worker.ts adds Astro; tests in workerd call this directly.
 */
export function createApp(options: AppOptions = {}): Hono<{ Bindings: AppEnv }> {
  // Without UPSTREAM_URL the upstream client speaks to the reference in-process; the app gives
  // it the reference, so the client never imports it.
  useLocalUpstream(createReference);
  const app = new Hono<{ Bindings: AppEnv }>();
  if (options.requestLog) app.use(requestLog(options.requestLog)); // first: it times and sees every answer
  app.use(securityHeaders());
  app.onError(onError);
  // The health check for operators and monitors (docs/deploy.md "Health check"): its own path,
  // apart from the health-declaration upload under /api/health. Hono answers HEAD with GET's handler.
  app.get('/healthz', healthCheck(options.healthCheck));
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
