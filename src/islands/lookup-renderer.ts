/**
 * The lookup islands' server renderer: @astrojs/react's own, under the name whose client entry is
 * the islands' module (src/islands/lookup-islands.ts, astro.config.mjs).
 */
import react from '@astrojs/react/server.js';
import { LOOKUP_RENDERER } from './lookup-renderer-name';

export default { ...react, name: LOOKUP_RENDERER };
