import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

/** GET without a token, following same-origin redirects the way a browser would. */
async function browse(url: string, hops = 5) {
  let current = url;
  for (let hop = 0; hop <= hops; hop++) {
    const response = await context.app.inject({ url: current });
    const location = response.headers.location;
    if (response.statusCode < 300 || response.statusCode >= 400 || typeof location !== 'string') {
      return response;
    }
    current = new URL(location, `http://localhost${current}`).pathname;
  }
  throw new Error(`Too many redirects from ${url}`);
}

interface Operation {
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  parameters?: { name: string; in: string }[];
  responses: Record<string, unknown>;
}

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document without a token', async () => {
    const response = await context.app.inject({ url: '/api/openapi.json' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'Careplane API', version: '0.3.0' });
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });

    const paths = document.paths as Record<string, Record<string, Operation>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/users',
        '/api/users/{id}',
        '/api/patient-profiles',
        '/api/users/stats',
        '/api/users/logs',
        '/api/devices/charts',
        '/api/domains',
        '/api/health',
      ]),
    );

    const create = paths['/api/users']!.post!;
    const createSchema = create.requestBody!.content['application/json']!.schema;
    expect(createSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(createSchema.required).toContain('username');
    expect(Object.keys(createSchema.properties as object)).toEqual(
      expect.arrayContaining(['username', 'firstName', 'localRoles']),
    );
    expect(create.responses).toHaveProperty('201');
    expect(create.responses).toHaveProperty('400');

    const update = paths['/api/users/{id}']!.patch!;
    const updateSchema = update.requestBody!.content['application/json']!.schema;
    expect(updateSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(updateSchema.properties).toHaveProperty('isBlocked');
    expect(update.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path' })]),
    );

    const logs = paths['/api/users/logs']!.get!;
    expect(logs.parameters!.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['filters', 'filtersLike', 'limit', 'offset']),
    );
    expect(paths['/api/users/stats']!.get!.responses).toHaveProperty('200');

    // A CSV export is signed in as its list is: it says so, as the list does.
    const exports = Object.keys(paths).filter((path) => path.endsWith('/export.csv'));
    expect(exports).toContain('/api/users/export.csv');
    for (const path of exports)
      expect(Object.keys(paths[path]!.get!.responses), path).toEqual(
        expect.arrayContaining(['200', '400', '401', '403']),
      );
  });

  it('serves the browsable documentation page without a token', async () => {
    const response = await browse('/api/docs');
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toMatch(/<html/i);
    expect(response.body).toMatch(/swagger/i);
  });

  it('serves the assets of the documentation page without a token', async () => {
    const page = await browse('/api/docs');
    const scripts = [...page.body.matchAll(/src="([^"]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const url = script.startsWith('/') ? script : `/api/docs/${script.replace(/^\.\//, '')}`;
      const asset = await context.app.inject({ url });
      expect(asset.statusCode, url).toBe(200);
    }
  });
});
