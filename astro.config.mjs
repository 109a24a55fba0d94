// @ts-check
import { defineConfig } from 'astro/config';
import cloudflare from '@astrojs/cloudflare';
import react from '@astrojs/react';
import { fileURLToPath } from 'node:url';

/**
 * The lookup page's islands hydrate through a renderer whose client entry is their own module
 * (src/islands/lookup-islands.ts): React's renderer, registered under a second name, so the page
 * fetches the islands and the hydrator as one file (issue 31: six requests). Every other island
 * uses @astrojs/react as registered by react().
 */
const lookupRenderer = {
  name: 'lookup-renderer',
  hooks: {
    'astro:config:setup': ({ addRenderer }) =>
      addRenderer({
        name: 'lookup-react',
        clientEntrypoint: fileURLToPath(new URL('./src/islands/lookup-islands.ts', import.meta.url)),
        serverEntrypoint: fileURLToPath(new URL('./src/renderers/lookup-react.ts', import.meta.url)),
      }),
  },
};

// Every page is rendered on demand at the edge (DESIGN.md "One Worker, four parts").
export default defineConfig({
  output: 'server',
  adapter: cloudflare({ imageService: 'passthrough' }),
  integrations: [react(), lookupRenderer],
  // No Astro sessions: the verified contact lives in a signed cookie (DESIGN.md "Decisions").
  session: false,
  security: {
    // Hashes for Astro's own inline and island scripts; sent as a header on every page.
    csp: {
      algorithm: 'SHA-256',
      directives: [
        "default-src 'self'",
        // This site and data: URLs only. A page that shows an organiser's config adds that
        // config's image hosts at run time (Astro.csp.insertDirective in src/layouts/Layout.astro,
        // origins from src/lib/util/image-origins.ts): no page allows every https host.
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "connect-src 'self'",
      ],
    },
  },
  vite: {
    build: {
      // Stylesheets up to 6 KB are inlined (Astro's inlineStylesheets 'auto' reads this limit): the
      // page shell's CSS (layout, header, language menu, footer, about 4.3 KB) then costs no
      // request of its own; a shared link is usually opened once, so there is no cache to lose.
      assetsInlineLimit: 6 * 1024,
    },
    environments: {
      client: {
        build: {
          rolldownOptions: {
            output: {
              // Two shared chunks, so a page loads a handful of files instead of a dozen small ones
              // over a slow network (issue 10: 12 JavaScript files, 16 requests): React's own, and
              // what the islands and page scripts share (nanostores, our rules). Each island stays
              // its own entry (the lookup page's three islands share one module, src/islands/lookup-islands.ts).
              // A page of plain scripts (the registration form) loads no React. The countdown store serves
              // the hold and the pledge only: not in every page's chunk; the lookup islands' store
              // (stores/lookup.ts) is in it, as the toast's is.
              // src/lib/page/chunk-load.ts belongs to the shell's inline script alone (it must not
              // pull the shared chunk into every page); the messaging app's small scripts (share card,
              // mini-program back) keep their rules to themselves, out of every other page's chunk;
              // so does the country picker's list code (form/countries.ts: the lookup islands only),
              // the ticket form's total (tickets/total.ts) and the health upload's anchors (page/anchors.ts).
              // The gate scanner's rules (src/lib/gate/) load on the staff gate page only; its QR
              // decoder (jsqr) lives in its own worker file, built apart from this group.
              // The photo resize (src/islands/photo.ts, about 0.5 KB gzip) is the camera's and the health
              // upload's: in the shared chunk rather than a chunk of its own, one request less on those pages.
              codeSplitting: {
                groups: [
                  { name: 'shared', priority: 2, test: /node_modules[\\/](?!(?:react|react-dom|scheduler|@astrojs[\\/]react|@nanostores[\\/]react)[\\/])|[\\/]src[\\/]lib[\\/](?!core[\\/]variants\.ts|form[\\/]countries\.ts|tickets[\\/]total\.ts|page[\\/]anchors\.ts|gate[\\/]|page[\\/](?:chunk-load|wx-share|mini-program|user-agent)\.ts)|[\\/]src[\\/]stores[\\/](?!countdown\.ts)|[\\/]src[\\/]islands[\\/](call\.ts|session\.ts|form-dom\.ts|photo\.ts)/ },
                  // React's own (about 66 KB of react-dom) in a chunk of its own, so a page whose
                  // scripts are plain DOM (the registration form, src/scripts/form-enhance.ts;
                  // issue 24: under 70 KB) loads the shared rules without React. The toast island
                  // is here (every React page has it; its store and rules are in 'shared', which is
                  // taken first so that a group's dependencies never pull the rules in here).
                  { name: 'react', priority: 1, test: /node_modules[\\/](?:react|react-dom|scheduler|@astrojs[\\/]react|@nanostores[\\/]react)[\\/]|[\\/]src[\\/]islands[\\/]ToastHost\.tsx/ },
                ],
              },
            },
          },
        },
      },
    },
  },
  // Shiki's inline styles would need 'unsafe-inline' under the CSP; no page highlights code.
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
});
