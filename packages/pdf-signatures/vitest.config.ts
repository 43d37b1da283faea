import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'pdf-signatures', include: ['src/**/*.test.ts'], testTimeout: 30_000 },
});
