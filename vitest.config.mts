import { defineConfig } from 'vitest/config'

// Coverage counts the sources the suite runs in its own workers: code that only runs in a child
// process or a worker thread from dist/ (the CLI, the transport targets) is not counted, so the floor
// is what the in-process tests reach. Raise it when the suite reaches more; never lower it to pass.
// What the suite reached when the floor was set (84.5 / 79.8 / 84.5 / 86.5 on 2026-12-01), rounded down.
const COVERAGE_FLOOR = { statements: 84, branches: 79, functions: 84, lines: 86 }

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/drills/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    coverage: {
      provider: 'v8',
      include: ['logx/**/*.ts', 'alerts/**/*.ts', 'agent/**/*.ts'],
      exclude: ['**/*.d.ts', '**/types.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      thresholds: COVERAGE_FLOOR,
    },
  },
})
