import { defineConfig } from 'vitest/config';

// In CI a JSON report is written as well, so .ci/run can print a plain
// "N passed, N failed" closing line.
const ci = process.env['CI'] === 'true';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    reporters: ci ? ['default', 'json'] : ['default'],
    ...(ci ? { outputFile: { json: 'test-results.json' } } : {}),
  },
});
