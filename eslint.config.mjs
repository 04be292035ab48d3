// ESLint (flat config): typescript-eslint's recommended type-checked rules, import order, no floating
// promises, and Nx module boundaries from the project tags (apps import libs only, never each other).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

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
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:client'] },
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:testing', 'type:client'],
            },
          ],
        },
      ],
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
              onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:testing', 'type:client'],
            },
            { sourceTag: 'type:deploy', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
          ],
        },
      ],
    },
  },
  prettier,
);
