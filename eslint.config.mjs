// ESLint (flat config): typescript-eslint's recommended type-checked rules, import order, no floating
// promises, and Nx module boundaries from the project tags (apps import libs only, never each other).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

// Each app's project is tagged scope:<app>, the shared libraries scope:shared: an app depends on its own scope and
// the shared libraries only (with the type:* constraints below, on libraries of the allowed types).
const APPS = ['account', 'checks', 'customers', 'engagement', 'identity', 'pass', 'validations'];
const scopeConstraints = APPS.map((app) => ({
  sourceTag: `scope:${app}`,
  onlyDependOnLibsWithTags: [`scope:${app}`, 'scope:shared'],
}));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      '.stack/**',
      'coverage/**',
      'tmp/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      // The launchers of the dev stack and the test harness are plain ES modules; they are linted.
      '!libs/devstack/**/*.mjs',
      'libs/client/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@nx': nx, 'simple-import-sort': simpleImportSort },
    rules: {
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            ...scopeConstraints,
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:client'] },
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: [
                'type:platform',
                'type:contracts',
                'type:testing',
                'type:client',
                'type:devstack',
              ],
            },
            { sourceTag: 'type:devstack', onlyDependOnLibsWithTags: [] },
          ],
        },
      ],
    },
  },
  {
    // Data access (docs/development.md): repositories and QueryBuilder by default; raw SQL only in an aggregate's
    // `*.store.ts` (its SQL in a `*.sql.ts` beside it) through the platform's raw-query API, and in migrations.
    // libs/platform implements that API and its own tables (outbox, inbox, jobs, idempotency, one-time codes);
    // integration tests and their harness (libs/testing) read and reset rows to assert them.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: [
      'libs/platform/src/**',
      'libs/testing/**',
      '**/*.store.ts',
      '**/*.sql.ts',
      '**/migrations/**',
      '**/*.migration.ts',
      '**/test/**',
      '**/*.integration-spec.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='query']",
          message:
            'Raw SQL (manager.query, dataSource.query, repository.query, a pool or client query) lives in the ' +
            "aggregate's *.store.ts, its SQL in a *.sql.ts, through the platform's raw-query API; elsewhere use the " +
            'repository or QueryBuilder (docs/development.md, "Data access").',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'pg',
              message: "The pg pool is reached only through the platform's raw-query API, from a *.store.ts.",
            },
            {
              name: '@kyc/platform',
              importNames: [
                'pgPool',
                'withPooledClient',
                'rawQuery',
                'writeQuery',
                'preparedQuery',
                'mapRow',
                'findOneRaw',
              ],
              message:
                'The raw-query API is called only from a *.store.ts (docs/development.md, "Data access"); ' +
                "call the aggregate's store or use the repository.",
            },
          ],
        },
      ],
    },
  },
  {
    // libs/devstack's launchers (PostgreSQL, Kafka, PgBouncer): plain Node ES modules, no type information.
    files: ['libs/devstack/**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
    },
  },
  {
    // Tests (and their harness) read untyped JSON answers (ApiClient bodies, raw rows) and assert their shape: the
    // assertion is their type check, so the no-unsafe-* family only adds casts there.
    files: ['**/*.spec.ts', '**/*.integration-spec.ts', '**/test/**/*.ts', 'libs/testing/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Fakes implement async interfaces (repositories, collectors, mailers) without awaiting anything.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests of apps and libs may use the test harness (libs/testing); their sources may not.
    files: ['**/*.spec.ts', '**/*.integration-spec.ts', '**/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            ...scopeConstraints,
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:testing', 'type:client'],
            },
            {
              sourceTag: 'type:platform',
              onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:testing'],
            },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: [
                'type:platform',
                'type:contracts',
                'type:testing',
                'type:client',
                'type:devstack',
              ],
            },
            { sourceTag: 'type:deploy', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
          ],
        },
      ],
    },
  },
  prettier,
);
