import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Only src/**: the Playwright specs in e2e/ run in a real browser, not here.
export default defineConfig({
  plugins: [react()],
  // '@/…' is src/… (tsconfig.json's paths), as in vite.config.ts.
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) }] },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Well above Testing Library's 15 s wait (src/test/setup.ts), so a slow page fails on what it waited for,
    // and a test that waits a few times in a row still has room on a slow machine.
    testTimeout: 60_000,
  },
});
