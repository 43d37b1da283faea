// Builds the console into dist/, which the server serves; in development, /api and /auth go to the server.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const serverUrl = process.env.CAREPLANE_SERVER_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
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
