import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The phone app's tests: its screens in happy-dom with the auth server faked at the network edge.
export default defineConfig({
  plugins: [react()],
  test: {
    name: 'authenticator',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 15_000,
  },
});
