// Builds the console into dist/, which the server serves; in development, /api and /auth go to the server.
// The build also writes the installable app (decision 046): the manifest and a Workbox service worker (sw.js)
// that keeps the app's files and the last answers of the reads the pharmacy and prescriptions areas need.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const serverUrl = process.env.CAREPLANE_SERVER_URL ?? 'http://localhost:3000';

/** The theme colour: the teal of favicon.svg (Mantine's cyan 9). */
const THEME_COLOR = '#0c8599';

/**
 * The kept answers are kept per person: each one's key carries who asked (the subject of the access token the
 * read carried), so one person's answers are never handed to another on the same device, even a read that was on
 * its way when they signed out and was written after the page emptied the caches (decision 106). A read without
 * a token (the runtime settings) is everyone's. (Copied into sw.js as it is: it may use nothing from this file.)
 */
const keptPerPerson = {
  cacheKeyWillBeUsed: async ({ request }: { request: Request }) => {
    const token = (request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
    let subject = '';
    try {
      const claims = token.split('.')[1] ?? '';
      const payload = JSON.parse(atob(claims.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
      subject = typeof payload.sub === 'string' ? payload.sub : '';
    } catch {
      subject = '';
    }
    const key = new URL(request.url);
    key.searchParams.set('kept-for', subject);
    return key.href;
  },
};

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      // src/main.tsx registers it, in a production build only: `vite dev` and the unit tests have none.
      injectRegister: false,
      registerType: 'autoUpdate',
      filename: 'sw.js',
      includeAssets: ['favicon.svg'],
      manifest: {
        name: 'Careplane',
        short_name: 'Careplane',
        description: 'Careplane: operations console for care at home and telemedicine',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: THEME_COLOR,
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      workbox: {
        // The whole app shell, every lazy page among it, so any page opens offline once visited online.
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        cleanupOutdatedCaches: true,
        // The server sends no source maps (they are no addresses): the worker announces none either.
        sourcemap: false,
        skipWaiting: true,
        clientsClaim: true,
        // Every page of the console is index.html; the server's own addresses and the authenticator are not.
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/auth(\/|$)/, /^\/authenticator(\/|$)/],
        runtimeCaching: [
          {
            // The reads kept for offline use, answered by the network when it answers and by their last
            // answer when it does not: the runtime settings, who is asking, the custody queues, a
            // prescription's history, the account. Receipts (PDF), signing states and everything else always
            // go to the network. (The function is copied into sw.js: it may use nothing from this file.)
            urlPattern: ({ url, sameOrigin }) =>
              sameOrigin &&
              /^\/(config\.json|api\/prescriptions(\/viewer|\/[0-9a-f-]{36}\/history)?|api\/users\/me)$/.test(
                url.pathname,
              ),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'careplane-api',
              networkTimeoutSeconds: 8,
              cacheableResponse: { statuses: [200] },
              expiration: { maxEntries: 200, maxAgeSeconds: 7 * 24 * 3600 },
              // The answers differ by token, not by the headers a cache would compare.
              matchOptions: { ignoreVary: true },
              plugins: [keptPerPerson],
            },
          },
          {
            // A care team's command center, the same way (decision 106): its lists, a person, their devices and
            // latest readings. A cache of its own: a chart's period names its moments, so its reads do not
            // repeat, and they must not push the custody queues out of theirs.
            urlPattern: ({ url, sameOrigin }) =>
              sameOrigin &&
              /^\/api\/command-centers\/(users|devices|alerts|jobs|iot-devices|readings)(\/[0-9a-f-]{36})?$/.test(
                url.pathname,
              ),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'careplane-care-team',
              networkTimeoutSeconds: 8,
              cacheableResponse: { statuses: [200] },
              expiration: { maxEntries: 100, maxAgeSeconds: 24 * 3600 },
              matchOptions: { ignoreVary: true },
              plugins: [keptPerPerson],
            },
          },
        ],
      },
    }),
  ],
  // '@/…' is src/… (tsconfig.json's paths): no '../../../' chains.
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) }] },
  // Source maps are written for error reporting but not announced to browsers. Shared chunks are named by their
  // hash alone, of seven characters (the fewest the bundler accepts for this many chunks; it refuses to build
  // rather than let two names collide): the first page's script carries the name of every chunk a route may
  // preload (178 of them), and module names or longer hashes cost it about half a kilobyte to a kilobyte of its
  // 200 kB budget (decision 029). The source maps name them.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: 'hidden',
    rolldownOptions: { output: { chunkFileNames: 'assets/c-[hash:7].js' } },
  },
  server: {
    proxy: {
      '/api': serverUrl,
      '/auth': serverUrl,
      '/config.json': serverUrl,
    },
  },
});
