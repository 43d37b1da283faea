// Compressed API answers (decision 018), on the whole app: above the threshold for a client that accepts
// brotli or gzip, never below it or for a client that does not; the avatar, the auth server's own answers and
// request bodies stay as they were.
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandCenters, users } from '@/db/schema/index.js';
import { createTestContext, type TestContext } from '@/test/harness.js';
import { COMPRESSION_THRESHOLD } from './compression.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
  // Enough users for a list answer well above the threshold.
  await context.database.db.insert(users).values(
    Array.from({ length: 40 }, (_, index) => ({
      username: `listed${index}@careplane.test`,
      usernameWithoutDomain: `listed${index}`,
      primaryDomain: 'careplane.test',
      firstName: `Listed${index}`,
      lastName: 'Person',
      localRoles: ['nurse'],
    })),
  );
});
afterAll(async () => {
  await context?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  context.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${context.adminToken}`, ...headers },
  });

const decoded = (response: LightMyRequestResponse) => {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString();
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString();
  return response.body;
};

describe('API answers', () => {
  it.each([
    ['br', 'gzip, deflate, br'],
    ['gzip', 'gzip, deflate'],
  ])('are sent %s-compressed above the threshold to a client that accepts it', async (encoding, accept) => {
    for (const url of ['/api/users?limit=50', '/api/openapi.json']) {
      const plain = await get(url);
      expect(plain.statusCode, url).toBe(200);
      expect(plain.rawPayload.length, url).toBeGreaterThan(10 * COMPRESSION_THRESHOLD);

      const response = await get(url, { 'accept-encoding': accept });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe(encoding);
      expect(response.headers.vary, url).toMatch(/accept-encoding/i);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.rawPayload.length, url).toBeLessThan(plain.rawPayload.length / 4);
      expect(JSON.parse(decoded(response)), url).toEqual(plain.json());
    }
    const list = JSON.parse(decoded(await get('/api/users?limit=50', { 'accept-encoding': accept })));
    expect(list.total).toBe(42);
    expect(list.items).toHaveLength(42);
  });

  it.each([undefined, 'identity', 'deflate', 'compress'])(
    'are sent as they are to a client that accepts no brotli or gzip (%s)',
    async (accept) => {
      const response = await get(
        '/api/users?limit=50',
        accept === undefined ? {} : { 'accept-encoding': accept },
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.json().total).toBe(42);
    },
  );

  it('are sent as they are below the threshold', async () => {
    const response = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toMatchObject({ status: 'ok' });
  });

  it('leave the avatar SVG and its headers as they were', async () => {
    const response = await get('/api/users/me/avatar', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    expect(decoded(response)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it("leave the auth server's own answers (its OpenID Provider) readable", async () => {
    const response = await context.app.inject({
      method: 'GET',
      url: '/auth/.well-known/openid-configuration',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(decoded(response))).toMatchObject({ issuer: 'http://careplane.test/auth' });
  });
});

describe('request bodies', () => {
  it('are never decompressed: a compressed body is refused and nothing is written', async () => {
    const before = (await context.database.db.select().from(commandCenters)).length;
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/command-centers',
      headers: {
        authorization: `Bearer ${context.adminToken}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      payload: gzipSync(JSON.stringify({ title: 'Zipped Center' })),
    });
    // Not read: the sender is told to send it uncompressed.
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      statusCode: 415,
      error: 'Unsupported Media Type',
      message: 'A compressed body (Content-Encoding) is not accepted: send the JSON as it is',
    });
    expect((await context.database.db.select().from(commandCenters)).length).toBe(before);
  });
});
