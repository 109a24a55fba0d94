/**
 * The lookup islands' server renderer (server only: outside src/islands, whose files are typed for the browser): @astrojs/react's own, under the name whose client entry is
 * the islands' module (src/islands/lookup-islands.ts, astro.config.mjs).
 */
import react from '@astrojs/react/server.js';
import { LOOKUP_RENDERER } from '../islands/lookup-renderer-name';

export default { ...react, name: LOOKUP_RENDERER };
