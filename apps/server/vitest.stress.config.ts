import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The stress layer (`npm run test:stress`, docs/decisions/041): generated requests against every operation
// and the role × operation access matrix. Kept out of the server project so it runs once, as its own layer.
export default defineConfig({
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) }] },
  test: {
    name: 'server-stress',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['src/**/*.stress.test.ts'],
    // One migrated embedded database per run, copied for each test file (src/test/global-setup.ts).
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
