// @ts-check
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';

/**
 * The import boundaries (README "Layout"), one pattern each. Imports are relative, so a
 * pattern names the folder reached by climbing (`../`), whatever the importing file's depth.
 * Each holds for static imports (`no-restricted-imports`) and for `import()`, the expression
 * and the type (`no-restricted-syntax`, below): a lazy import crosses a boundary all the same.
 */
const forbid = {
  libOutside: { regex: '^\\.\\./\\.\\./', message: 'src/lib imports only src/lib: move what it needs into src/lib (util/domain.ts for types).' },
  libFramework: { regex: '^(astro|hono|react|react-dom|@astrojs/.*|cloudflare:.*)(/.*)?$', message: 'src/lib is framework-free: pass values in instead.' },
  uiWorker: {
    regex: '^(\\.\\./)+functions(/|$)',
    message: 'Pages, components, islands and stores never import the Worker (functions/): shared types and rules live in src/lib.',
  },
  workersModule: {
    regex: '^cloudflare:workers$',
    message: "Under src/, only src/middleware.ts reads 'cloudflare:workers': pass what a page needs through locals.",
  },
  apiIslands: {
    regex: '^(\\.\\./)+src/islands(/|$)',
    message: 'functions/api never imports src/islands: the reply types live in src/lib, and both sides import them there.',
  },
  upstreamReference: {
    regex: '^(\\.\\./)+(functions/)?reference(/|$)',
    message: 'functions/upstream never imports the reference upstream (functions/reference): the app injects it.',
  },
  scriptsReact: {
    regex: '^((react|react-dom|@astrojs/.*|@nanostores/react)(/.*)?|(\\.\\./)+islands/([A-Z].*|lookup-(islands|renderer)))$',
    message: 'src/scripts are plain page scripts: no React, no island component (the form page loads no React: README "Layout").',
    // Components are the capitalised modules; the helpers beside them (call, session) are shared.
    caseSensitive: true,
  },
  referenceLib: {
    // src/lib/contract is the contract itself (docs/upstream.md as code): the one part it may import.
    regex: '^(\\.\\./)+src/lib(/(?!contract(/|$)).*)?$',
    message: "functions/reference never imports src/lib but its contract (src/lib/contract): the stand-in depends on the contract only, so the edge's constants are tested, not shared.",
  },
};

/** Which files keep which boundaries: data, one row a folder group (a file matches one row: flat config does not merge a rule's options). */
const boundaries = [
  { files: ['src/lib/**'], patterns: [forbid.libOutside, forbid.libFramework] },
  { files: ['src/components/**', 'src/islands/**', 'src/stores/**', 'src/pages/**', 'src/layouts/**'], patterns: [forbid.uiWorker, forbid.workersModule] },
  { files: ['src/scripts/**'], patterns: [forbid.uiWorker, forbid.workersModule, forbid.scriptsReact] },
  {
    files: ['src/**'],
    ignores: ['src/middleware.ts', 'src/lib/**', 'src/components/**', 'src/islands/**', 'src/stores/**', 'src/pages/**', 'src/layouts/**', 'src/scripts/**'],
    patterns: [forbid.workersModule],
  },
  { files: ['functions/api/**'], patterns: [forbid.apiIslands] },
  { files: ['functions/upstream/**'], patterns: [forbid.upstreamReference] },
  { files: ['functions/reference/**'], patterns: [forbid.referenceLib] },
];

/**
 * The same patterns as `no-restricted-syntax` selectors on the two `import()` forms: the
 * expression (`await import('…')`) and the type (`import('…').T`). An esquery regex ends at
 * the first `/`, so the pattern's slashes are written `\x2F`.
 */
function dynamicImports(patterns) {
  return patterns.flatMap(({ regex, message }) => {
    const re = `/${regex.replaceAll('/', '\\x2F')}/`;
    return [
      { selector: `ImportExpression > Literal.source[value=${re}]`, message },
      { selector: `TSImportType > Literal.source[value=${re}]`, message },
    ];
  });
}

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
  ...boundaries.map(({ files, ignores, patterns }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: {
      'no-restricted-imports': ['error', { patterns }],
      'no-restricted-syntax': ['error', ...dynamicImports(patterns)],
    },
  })),
);
