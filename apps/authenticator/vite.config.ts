// Builds the authenticator (the phone app) into dist/, which the server serves at /authenticator; in
// development, /auth and /config.json go to the server.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const serverUrl = process.env.CAREPLANE_SERVER_URL ?? 'http://localhost:3000';

export default defineConfig({
  base: '/authenticator/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: 'hidden' },
  server: {
    proxy: {
      '/auth': serverUrl,
      '/config.json': serverUrl,
    },
  },
});
