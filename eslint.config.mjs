import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries by project tags. Tests (`*.spec.ts`, `*.int-spec.ts`) may also use the test tooling
 * and test kits (`src/testing/`) may also use the test tooling (libs/shared/dev-stack: fresh databases,
 * the stack launcher, protocol fakes).
 */
function boundaries(isTest) {
  const tooling = isTest ? ['type:tooling'] : [];
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      depConstraints: [
        { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
        { sourceTag: 'scope:trading', onlyDependOnLibsWithTags: ['scope:trading', 'scope:shared'] },
        { sourceTag: 'scope:alerts', onlyDependOnLibsWithTags: ['scope:alerts', 'scope:shared'] },
        { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:trading', 'scope:alerts', 'scope:shared'] },
        {
          sourceTag: 'type:app',
          onlyDependOnLibsWithTags: [
            'type:feature',
            'type:domain',
            'type:data-access',
            'type:contracts',
            'type:infra',
            ...tooling,
          ],
        },
        {
          sourceTag: 'type:feature',
          onlyDependOnLibsWithTags: [
            'type:feature',
            'type:domain',
            'type:data-access',
            'type:contracts',
            'type:infra',
            ...tooling,
          ],
        },
        {
          sourceTag: 'type:data-access',
          onlyDependOnLibsWithTags: ['type:data-access', 'type:domain', 'type:contracts', ...tooling],
        },
        {
          sourceTag: 'type:domain',
          onlyDependOnLibsWithTags: ['type:domain'],
          bannedExternalImports: ['@nestjs/*', 'typeorm', 'express', 'bullmq', 'ioredis', 'pg', 'zod', 'pino'],
        },
        { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain'] },
        { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:contracts', ...tooling] },
        {
          sourceTag: 'type:tooling',
          onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:domain', 'type:data-access'],
        },
        {
          sourceTag: 'type:e2e',
          onlyDependOnLibsWithTags: [
            'type:tooling',
            'type:contracts',
            'type:domain',
            'type:data-access',
            'type:feature',
          ],
        },
      ],
    },
  ];
}

export default [
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      '.cache/**',
      '.nx/**',
      'tmp/**',
      'coverage/**',
      '**/*.cjs',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(false),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unsafe-function-type': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through the app config schema, not process.env.',
        },
      ],
    },
  },
  {
    files: [
      'tools/**/*.ts',
      'libs/shared/dev-stack/**/*.ts',
      'libs/shared/nest-infra/src/config/**/*.ts',
      'libs/shared/nest-infra/src/bootstrap/run-app.ts',
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.e2e-spec.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/src/testing/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(true) },
  },
];
