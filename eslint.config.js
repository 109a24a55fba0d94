// @ts-check
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';

export default tseslint.config(
  { ignores: ['dist/', '.astro/', '.wrangler/', 'node_modules/', 'worker-configuration.d.ts', 'test-results/', 'playwright-report/', 'bench/'] },
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The rules are pure (DESIGN.md, STYLE.md §1): src/lib imports only src/lib and plain
    // libraries, never the Worker (functions/), the pages, the islands or a framework.
    files: ['src/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./\\.\\./', message: 'src/lib imports only src/lib: move what it needs into src/lib (util/domain.ts for types).' },
            { regex: '^(astro|hono|react|react-dom|@astrojs/.*|cloudflare:.*)(/.*)?$', message: 'src/lib is framework-free: pass values in instead.' },
          ],
        },
      ],
    },
  },
);
