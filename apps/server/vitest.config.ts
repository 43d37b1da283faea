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
    // Guards against a hung test, not figures: CI's machine has been seen three times slower than a quiet one,
    // where a file's set-up (a server, its auth server, a copied database) took over a minute.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
