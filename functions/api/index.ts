import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { lang } from './lang';
import { lookup } from './lookup';
import { register } from './register';
import { camera } from './camera';

/**
 * The edge API, mounted at /api (DESIGN.md part 3). Accepts JSON (islands) and form posts
 * (no JavaScript: answers 303 to the next page).
 */
export const api = new Hono<{ Bindings: AppEnv }>();
api.get('/health', (c) => c.json({ ok: true }));
api.route('/lang', lang);
api.route('/', lookup);
api.route('/', register);
api.route('/', camera);
// Mounted sub-apps do not own notFound: a catch-all keeps unknown API paths out of the pages.
api.all('*', (c) => c.json({ error: `No API at ${new URL(c.req.url).pathname}` }, 404));
