import { Hono } from 'hono';
import { cf } from '@astrojs/cloudflare/hono';
import { astro } from 'astro/hono';

const app = new Hono();
app.get('/api/ping', (c) => c.json({ ok: true }));
app.use(cf());
app.use(astro());
export default app;
