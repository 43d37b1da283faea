import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const server = 'apps/server/src';
const consoleFeatures = 'apps/web/src/features';
/** The files behind the "exports" of @careplane/pdf-signatures (its package.json): all an app may reach. */
const pdfSignaturesEntries = ['./index.ts', './sample-pdf.ts'];
const subfolders = (folder) =>
  readdirSync(new URL(folder, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * Layers, checked here rather than in review (guide: "one-way dependencies"). The server's lib and db are
 * below every feature; the auth server is a deployable of its own; modules use each other's services, never
 * each other's repositories; console features stay apart and sit above lib and config. The apps use the
 * signing core through its public entries only, and its test kit only in tests.
 */
const layerZones = (forTests) => [
  {
    target: 'apps',
    from: 'packages/pdf-signatures/src',
    except: forTests ? [...pdfSignaturesEntries, './testing.ts'] : pdfSignaturesEntries,
    message: forTests
      ? 'Import @careplane/pdf-signatures, /samples or /testing: the rest is its own.'
      : 'Import @careplane/pdf-signatures or /samples (/testing is for tests): the rest is its own.',
  },
  ...['lib', 'db'].map((layer) => ({
    target: `${server}/${layer}`,
    from: ['modules', 'plugins', 'cli', 'auth-server', 'dev', 'app.ts', 'services.ts', 'server.ts', 'main.ts']
      // Tests beside lib and db code may use the test harness, which builds the whole app.
      .concat(forTests ? [] : ['test'])
      .map((upper) => `${server}/${upper}`),
    message: `${layer} sits below the features: pass what it needs in instead.`,
  })),
  {
    // The database layer is the floor: the change feed and the store build on it, not the other way round.
    target: `${server}/db`,
    from: `${server}/lib`,
    message: 'db sits below lib: move what both need into db, or pass it in.',
  },
  // Demo and browser-test helpers serve the server's start and the tests; nothing of theirs runs back up
  // (their own tests may drive the CLI).
  ...(forTests
    ? []
    : [
        {
          target: `${server}/dev`,
          from: ['cli', 'server.ts', 'main.ts', 'app.ts', 'services.ts'].map((upper) => `${server}/${upper}`),
          message: 'dev sits below the start of the server: pass what it needs in instead.',
        },
      ]),
  {
    target: `${server}/auth-server`,
    from: ['modules', 'plugins', 'cli', 'dev', 'app.ts', 'services.ts', 'server.ts'].map(
      (upper) => `${server}/${upper}`,
    ),
    message: 'The auth server runs on its own (careplane start --only auth): it depends on lib and db only.',
  },
  ...subfolders(`${server}/modules`).map((module) => ({
    target: `${server}/modules/${module}`,
    from: `${server}/modules/!(${module})/**/*.repository.ts`,
    message: "Call the other module's service, not its repository.",
  })),
  ...subfolders(consoleFeatures).map((feature) => ({
    target: `${consoleFeatures}/${feature}`,
    from: consoleFeatures,
    except: [`./${feature}`],
    message: 'Console features do not import each other: compose them in app/.',
  })),
  {
    target: ['apps/web/src/lib', 'apps/web/src/config'],
    // Tests of lib code may render it inside the app's providers.
    from: ['apps/web/src/features', ...(forTests ? [] : ['apps/web/src/app'])],
    message: 'lib and config sit below the features and the app.',
  },
];

/** Imports that climb two folders or more: '@/…' (the app's src/…) says where they go instead. */
const climbing = {
  group: ['../../*'],
  message: "Import it as '@/…' (src/…) instead of climbing with '../../'.",
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      // The Node 24 smoke's build (scripts/node24-smoke.mjs), while it runs.
      'apps/server/dist-node24/**',
      '**/.data/**',
      'apps/server/src/db/migrations/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['*.ts', '*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Which files the cycle check parses (and with what) when it follows an import.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [
            'packages/shared/tsconfig.json',
            'packages/pdf-signatures/tsconfig.json',
            'apps/server/tsconfig.json',
            'apps/web/tsconfig.json',
            'apps/web/tsconfig.node.json',
            'apps/authenticator/tsconfig.json',
          ],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: layerZones(false) }],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones(true) }] },
  },
  {
    // A file reaches outside its folder's neighbourhood by '@/…' (src/…), never by a '../../' chain (the
    // server's files get the same pattern beside their oidc-provider rule below).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [climbing] }] },
  },
  {
    // One-way dependencies: the shared contract never imports an app; features stay apart.
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/apps/**', 'fastify*', 'drizzle-orm*', 'react*', 'node:*', 'pg', '@electric-sql/*'] },
      ],
    },
  },
  {
    // The signing core is a library of its own: nothing of the apps, the database or HTTP, nor the product's
    // contract (its tests may check the authenticator's side of the protocol against it).
    files: ['packages/pdf-signatures/**/*.ts'],
    ignores: ['packages/pdf-signatures/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '**/apps/**',
            '@careplane/*',
            'fastify*',
            'drizzle-orm*',
            'pg',
            '@electric-sql/*',
            'react*',
          ],
        },
      ],
    },
  },
  {
    files: ['packages/pdf-signatures/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/apps/**', 'fastify*', 'drizzle-orm*', 'pg', '@electric-sql/*', 'react*'] },
      ],
    },
  },
  {
    // oidc-provider is imported in one place, which keeps its known runtime warning quiet (decision 016).
    files: ['apps/server/**/*.ts'],
    ignores: ['apps/server/src/auth-server/oidc.ts', 'apps/server/src/auth-server/oidc-provider.d.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'oidc-provider',
              message: 'Import it from src/auth-server/oidc.ts (decision 016).',
            },
          ],
          patterns: [climbing],
        },
      ],
    },
  },
  {
    // The console runs in the browser.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The authenticator runs in the browser; its offline shell in a service worker.
    files: ['apps/authenticator/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['apps/authenticator/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // inject().json() is untyped by nature; tests assert on its shape.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**/*.ts', '**/e2e/**/*.ts', '**/bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
