import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  // '@/…' is src/… (tsconfig.json's paths), as for tsc, tsx and the build.
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) }] },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // The stress layer runs on its own (vitest.stress.config.ts).
    exclude: [...configDefaults.exclude, 'src/**/*.stress.test.ts'],
    // One migrated embedded database per run, copied for each test file (src/test/global-setup.ts).
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
