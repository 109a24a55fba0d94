import { cf } from '@astrojs/cloudflare/hono';
import { astro } from 'astro/hono';
import { createApp } from './app';
import { wholePages } from './middleware/whole-pages';
import { pageHandoff } from './middleware/guard';
import type { AppEnv } from './env';
import { createReference } from './reference';

/**
 * The Worker entry (wrangler `main`): the Hono app (headers, API, reference upstream), then
 * every other request handed to Astro through the adapter's Hono middleware (STACK.md).
 */
const app = createApp({ requestLog: {} }); // one JSON line per request (middleware/request-log.ts)
app.use(wholePages()); // headers and cookies set by the screens after an await (functions/middleware/whole-pages.ts)
app.use(cf());
app.use(pageHandoff()); // the page the guard started, on to the page loader (src/middleware.ts)
app.use(astro());

// fetch: the app; scheduled: the Cron Trigger's sweep of expired unpaid orders (wrangler.toml).
export default {
  fetch: app.fetch,
  scheduled: (controller, env, ctx) => createReference(env).scheduled(controller, ctx),
} satisfies ExportedHandler<AppEnv>;

// The abuse limits' counter (functions/limits): a Durable Object class must be exported by the entry.
export { Limiter } from './limits/limiter';
