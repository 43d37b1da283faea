// Builds the console into dist/, which the server serves; in development, /api and /auth go to the server.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const serverUrl = process.env.CAREPLANE_SERVER_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  // '@/…' is src/… (tsconfig.json's paths): no '../../../' chains.
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) }] },
  // Source maps are written for error reporting but not announced to browsers.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: 'hidden' },
  server: {
    proxy: {
      '/api': serverUrl,
      '/auth': serverUrl,
      '/config.json': serverUrl,
    },
  },
});
