import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Only src/**: the Playwright specs in e2e/ run in a real browser, not here.
export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
