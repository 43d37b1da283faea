// The authenticator's build at /authenticator beside the console's build at every other address.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@/config.js';
import { authenticatorWebPlugin } from './authenticator-web.js';
import { errorsPlugin } from './errors.js';
import { webPlugin } from './web.js';

const PWA_HTML = '<!doctype html><html><body><div id="authenticator"></div></body></html>';
const CONSOLE_HTML = '<!doctype html><html><body><div id="console"></div></body></html>';

let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'careplane-pwa-'));
  const pwa = path.join(dir, 'authenticator');
  const web = path.join(dir, 'web');
  mkdirSync(path.join(pwa, 'assets'), { recursive: true });
  mkdirSync(web);
  writeFileSync(path.join(pwa, 'index.html'), PWA_HTML);
  writeFileSync(path.join(pwa, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(pwa, 'manifest.webmanifest'), '{"name":"Careplane Authenticator"}');
  writeFileSync(path.join(pwa, 'assets', 'index-abc.js'), 'console.log(1);');
  writeFileSync(path.join(web, 'index.html'), CONSOLE_HTML);

  app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorsPlugin);
  await app.register(authenticatorWebPlugin, { root: pwa });
  await app.register(webPlugin, { config: loadConfig({ LOG_LEVEL: 'silent' }), root: web });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('the authenticator at /authenticator', () => {
  it.each(['/authenticator', '/authenticator/', '/authenticator/enroll', '/authenticator/qr'])(
    '%s is the app, always revalidated',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(PWA_HTML);
    },
  );

  it('serves the manifest, the service worker and immutable assets', async () => {
    const manifest = await get('/authenticator/manifest.webmanifest');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.json()).toEqual({ name: 'Careplane Authenticator' });

    const worker = await get('/authenticator/sw.js');
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toMatch(/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');

    const asset = await get('/authenticator/assets/index-abc.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers a missing file below /authenticator with a 404, not the app', async () => {
    const response = await get('/authenticator/assets/missing.js');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('leaves every other address to the console', async () => {
    for (const url of ['/', '/login', '/authenticatorx', '/admin/users']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(CONSOLE_HTML);
    }
  });
});
