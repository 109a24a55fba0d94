/** The name of the renderer the lookup islands use (astro.config.mjs, src/islands/lookup-islands.ts). */
export const LOOKUP_RENDERER = 'lookup-react';
