// The faked network edge holds its answers to the shared contract: a fake that drifts from it fails.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, testConfig } from './app.tsx';
import { assertNoContractViolations, fakeNetwork, json } from './network.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Asks the fake, expects the answer to be refused, and takes the breach so the set-up's check passes. */
async function expectRefused(url: string, init: RequestInit = {}) {
  await expect(fetch(url, init)).rejects.toThrow('breaks its contract');
  let reported = '';
  try {
    assertNoContractViolations();
  } catch (error) {
    reported = (error as Error).message;
  }
  return reported;
}

describe('the faked network edge', () => {
  it('refuses a user that breaks the schema of GET /api/users/me, and fails the test that faked it', async () => {
    fakeNetwork()
      .on('GET', '/api/users/me', () => json({ ...makeUser(), id: 42, roles: 'admin' }))
      .install();
    const reported = await expectRefused('/api/users/me');
    expect(reported).toMatch(/^The fake answer to GET \/api\/users\/me \(200\) breaks its contract/);
    expect(reported).toContain('"id"');
    expect(reported).toContain('"roles"');
    // Taken once: the check after this test finds nothing left.
    expect(() => assertNoContractViolations()).not.toThrow();
  });

  it('refuses an error answer of the API that is not the error body', async () => {
    fakeNetwork()
      .on('GET', '/api/users/me/avatar', () => json({}, 404))
      .install();
    expect(await expectRefused('/api/users/me/avatar')).toContain('GET /api/users/me/avatar (404)');
  });

  it("refuses a /config.json the console's own parser would refuse", async () => {
    fakeNetwork()
      .on('GET', '/config.json', () => json({ ...testConfig, authUrl: undefined }))
      .install();
    expect(await expectRefused('/config.json')).toContain('The runtime configuration lacks authUrl');
  });

  it('refuses an API answer for an endpoint whose contract it does not know', async () => {
    fakeNetwork()
      .on('GET', '/api/not-an-endpoint', () => json({ items: [] }))
      .install();
    expect(await expectRefused('/api/not-an-endpoint')).toContain(
      'No contract is known for GET /api/not-an-endpoint',
    );
  });

  it('checks the generic resources by their item schemas: a list missing its total is refused', async () => {
    fakeNetwork()
      .on('GET', '/api/prescriptions', () => json({ items: [] }))
      .install();
    expect(await expectRefused('/api/prescriptions')).toContain(
      'The fake answer to GET /api/prescriptions (200) breaks its contract',
    );
  });

  it('passes answers that keep to the contract, and the OAuth answers of the auth server', async () => {
    fakeNetwork()
      .on('GET', '/api/users/me', () => json(makeUser({ roles: ['admin'] })))
      .on('POST', '/api/auth', () =>
        json({ statusCode: 401, error: 'Unauthorized', message: 'The token has expired' }, 401),
      )
      .on('GET', '/config.json', () => json(testConfig))
      .on('POST', '/auth/token', () => json({ error: 'authorization_pending' }, 400))
      .install();
    expect(await (await fetch('/api/users/me')).json()).toMatchObject({
      id: makeUser().id,
      roles: ['admin'],
    });
    expect((await fetch('/api/auth', { method: 'POST' })).status).toBe(401);
    expect(await (await fetch('/config.json')).json()).toEqual(testConfig);
    expect((await fetch('/auth/token', { method: 'POST' })).status).toBe(400);
    expect(() => assertNoContractViolations()).not.toThrow();
  });
});
