import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@/config.js';
import { createTestContext, type TestContext } from '@/test/harness.js';
import { registerCompression } from './compression.js';
import { errorsPlugin } from './errors.js';
import { webPlugin } from './web.js';

const INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>';
const ASSET_JS = 'console.log("careplane");';
const SW_JS = 'self.addEventListener("fetch", () => undefined);';
// A built script large enough to be precompressed, and its copies as scripts/precompress.mjs writes them.
const MAIN_JS = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: 'row ${i}' }`).join(',')}];`;

/** The web plugin alone, behind compression and the real error handler (as in the app), over a build of the test's own. */
async function consoleServer(root: string, env: NodeJS.ProcessEnv = {}) {
  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerCompression(app);
  await app.register(errorsPlugin);
  app.get('/api/known', async () => ({ known: true }));
  await app.register(webPlugin, { config: loadConfig({ LOG_LEVEL: 'silent', ...env }), root });
  await app.ready();
  return app;
}

describe('the whole app', () => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestContext();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('serves the runtime settings at /config.json without a token', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/config.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toEqual({
      apiUrl: 'http://localhost:3000',
      appServerUrl: 'http://localhost:3000',
      authUrl: 'http://careplane.test/auth',
      supportEmail: 'support@careplane.local',
      googlePlayUrl: null,
      appStoreUrl: null,
      mapsKey: null,
      mapsRegion: 'TH',
      mapsLanguage: 'th',
      sentryDsn: null,
    });
  });

  it("lets the console's service worker and manifest load under its content security policy", async () => {
    const response = await context.app.inject({ method: 'GET', url: '/config.json' });
    const policy = response.headers['content-security-policy'];
    expect(policy).toContain("worker-src 'self'");
    expect(policy).toContain("manifest-src 'self'");
    // The worker fetches the app's files and the API from its own origin.
    expect(policy).toContain("connect-src 'self'");
  });

  it('answers an unknown /api address with the JSON error body, never the console', async () => {
    const response = await context.app.inject({
      method: 'GET',
      url: '/api/unknown',
      headers: { authorization: `Bearer ${context.adminToken}` },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Route GET /api/unknown not found',
    });
  });

  it('still asks for a token on an unknown /api address', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });
});

describe('runtime settings from the environment', () => {
  it('passes the configured values through, and treats blank values as unset', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'careplane-web-'));
    const app = await consoleServer(root, {
      PUBLIC_URL: 'https://care.example.org/',
      SUPPORT_EMAIL: 'help@care.example.org',
      GOOGLE_PLAY_URL: 'https://play.example.org/careplane',
      APP_STORE_URL: '',
      MAPS_API_KEY: 'maps-key-1',
      MAPS_REGION: 'de',
      MAPS_LANGUAGE: 'de-CH',
      SENTRY_DSN: 'https://key@errors.example.org/4',
    });
    try {
      expect((await app.inject({ method: 'GET', url: '/config.json' })).json()).toEqual({
        apiUrl: 'https://care.example.org',
        appServerUrl: 'https://care.example.org',
        authUrl: 'https://care.example.org/auth',
        supportEmail: 'help@care.example.org',
        googlePlayUrl: 'https://play.example.org/careplane',
        appStoreUrl: null,
        mapsKey: 'maps-key-1',
        mapsRegion: 'DE',
        mapsLanguage: 'de-CH',
        sentryDsn: 'https://key@errors.example.org/4',
      });
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses malformed values at start', () => {
    expect(() => loadConfig({ SUPPORT_EMAIL: 'not an address' })).toThrow(/SUPPORT_EMAIL/);
    expect(() => loadConfig({ SENTRY_DSN: 'nope' })).toThrow(/SENTRY_DSN/);
    expect(() => loadConfig({ MAPS_REGION: 'THA' })).toThrow(/MAPS_REGION/);
  });
});

describe('the console build', () => {
  let root: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'careplane-web-'));
    mkdirSync(path.join(root, 'assets'));
    writeFileSync(path.join(root, 'index.html'), INDEX_HTML);
    writeFileSync(path.join(root, 'assets', 'index-abc123.js'), ASSET_JS);
    writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    // The installable console's files (decision 046), as vite-plugin-pwa writes them.
    writeFileSync(path.join(root, 'sw.js'), SW_JS);
    writeFileSync(path.join(root, 'manifest.webmanifest'), '{"name":"Careplane"}');
    const main = path.join(root, 'assets', 'main-def456.js');
    writeFileSync(main, MAIN_JS);
    writeFileSync(`${main}.br`, brotliCompressSync(MAIN_JS));
    writeFileSync(`${main}.gz`, gzipSync(MAIN_JS));
    writeFileSync(`${main}.map`, '{"version":3,"sources":["../src/main.tsx"],"mappings":""}');
    // index.html's copies say so, to tell them from the page itself.
    writeFileSync(path.join(root, 'index.html.br'), brotliCompressSync(INDEX_HTML.replace('root', 'br')));
    writeFileSync(path.join(root, 'index.html.gz'), gzipSync(INDEX_HTML.replace('root', 'gz')));
    app = await consoleServer(root);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it.each(['/', '/admin', '/admin/users/0190a1b2-0000-7000-8000-000000000000', '/pharmacy?page=2'])(
    'answers %s with the console, never cached',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(INDEX_HTML);
    },
  );

  it('sends a page asked at another loopback name of the same port to PUBLIC_URL, where its sign-in works', async () => {
    const local = await consoleServer(root, { PORT: '3310', PUBLIC_URL: 'http://localhost:3310' });
    try {
      const asked = (host: string, url = '/admin/users?page=2') =>
        local.inject({ method: 'GET', url, headers: { host } });
      const moved = await asked('127.0.0.1:3310');
      expect(moved.statusCode).toBe(302);
      expect(moved.headers.location).toBe('http://localhost:3310/admin/users?page=2');
      expect((await asked('[::1]:3310', '/')).headers.location).toBe('http://localhost:3310/');
      // Its own name, another port, or another host: the console as it is asked.
      for (const host of ['localhost:3310', '127.0.0.1:4000', 'careplane.example:3310']) {
        expect((await asked(host)).statusCode).toBe(200);
      }
      // The API and files answer at any name.
      expect((await asked('127.0.0.1:3310', '/assets/index-abc123.js')).statusCode).toBe(200);
      expect((await asked('127.0.0.1:3310', '/api/known')).statusCode).toBe(200);
    } finally {
      await local.close();
    }
  });

  it('serves built files, hashed assets as immutable', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toBe(ASSET_JS);
    const icon = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('serves the service worker at the root, revalidated on every load, and the manifest by its type', async () => {
    const worker = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    // Never cached for long: a new build's worker must be found on the next load (its scope is '/').
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.body).toBe(SW_JS);
    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    ['br', 'br, gzip, deflate'],
    ['gzip', 'gzip, deflate'],
  ])(
    'sends the %s copy of a built asset to a client that accepts it, still immutable',
    async (encoding, accept) => {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await app.inject({
          method,
          url: '/assets/main-def456.js',
          headers: { 'accept-encoding': accept },
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding']).toBe(encoding);
        expect(response.headers['content-type']).toMatch(/^(application|text)\/javascript/);
        expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(response.headers.vary).toMatch(/accept-encoding/i);
        if (method === 'GET') {
          const body =
            encoding === 'br' ? brotliDecompressSync(response.rawPayload) : gunzipSync(response.rawPayload);
          expect(body.toString()).toBe(MAIN_JS);
          expect(response.rawPayload.length).toBeLessThan(MAIN_JS.length / 3);
        }
      }
    },
  );

  it.each([undefined, 'identity', 'deflate'])(
    'sends the asset itself when the client accepts no brotli or gzip (%s)',
    async (accept) => {
      const response = await app.inject({
        method: 'GET',
        url: '/assets/main-def456.js',
        headers: accept === undefined ? {} : { 'accept-encoding': accept },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body).toBe(MAIN_JS);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    },
  );

  it.each(['/', '/admin/users/0190a1b2-0000-7000-8000-000000000000'])(
    'answers the deep link %s with the compressed page, never cached',
    async (url) => {
      const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/^text\/html/);
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(INDEX_HTML.replace('root', 'br'));
      const gzip = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(INDEX_HTML.replace('root', 'gz'));
    },
  );

  it('does not serve the compressed copies as files of their own, nor the source maps', async () => {
    for (const url of [
      '/assets/main-def456.js.br',
      '/assets/main-def456.js.gz',
      '/index.html.br',
      '/assets/main-def456.js.map',
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });

  it.each(['/assets/missing.js', '/robots.txt', '/api/unknown', '/api', '/auth/unknown', '/auth'])(
    'answers %s with the JSON 404, not the console',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    },
  );

  it('leaves known /api routes alone', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/known' })).json()).toEqual({ known: true });
  });

  it('answers only GET and HEAD with the console', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/admin' });
    expect(head.statusCode).toBe(200);
    const post = await app.inject({ method: 'POST', url: '/admin', payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ statusCode: 404 });
  });

  it('does not serve files outside the build', async () => {
    const response = await app.inject({ method: 'GET', url: '/../../package.json' });
    expect(response.statusCode).not.toBe(200);
    const encoded = await app.inject({ method: 'GET', url: '/assets/..%2f..%2fpackage.json' });
    expect(encoded.statusCode).toBe(404);
  });
});

describe('without a console build', () => {
  it('says how to build it, and still serves /config.json', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'careplane-web-'));
    const app = await consoleServer(path.join(root, 'missing'));
    try {
      const page = await app.inject({ method: 'GET', url: '/' });
      expect(page.statusCode).toBe(404);
      expect(page.json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'The console is not built: run `npm run build`',
      });
      expect((await app.inject({ method: 'GET', url: '/config.json' })).statusCode).toBe(200);
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
