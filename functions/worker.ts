import { cf } from '@astrojs/cloudflare/hono';
import { astro } from 'astro/hono';
import { createApp } from './app';
import { wholePages } from './middleware/whole-pages';

/**
 * The Worker entry (wrangler `main`): the Hono app (headers, API, reference upstream), then
 * every other request handed to Astro through the adapter's Hono middleware (STACK.md).
 */
const app = createApp();
app.use(wholePages()); // issue 9: headers and cookies set by the screens after an await (functions/middleware/whole-pages.ts)
app.use(cf());
app.use(astro());

export default app;

// The abuse limits' counter (functions/limits): a Durable Object class must be exported by the entry.
export { Limiter } from './limits/limiter';
