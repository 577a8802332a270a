import { defineConfig } from 'vitest/config'

// The reliability drills (test/drills/): long, heavy, one file at a time so their time and memory
// figures are their own. `npm run test:drills`; CI runs them after `npm test`. They all run the built
// agent: the global setup refuses a missing or stale dist/ ("run npm run build first").
export default defineConfig({
  test: {
    include: ['test/drills/**/*.drill.ts'],
    globalSetup: ['./test/helpers/build-global-setup.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/drills/lib/summary-reporter.ts'],
  },
})
