// The authenticator app (PWA at /authenticator) in Chromium at a phone's size: enrollment with a code and
// with a link, a CIBA sign-in started by a client seen and approved in the app (the client's token poll then
// gets tokens), a denial, and a QR sign-in opened as a link on the phone.
/// <reference lib="dom" />
import { issuedIdentity, type IssuedIdentity } from './support/cli-authenticator.ts';
import { expect, test, type Page } from './support/test.ts';

// Made by scripts/e2e-server.mjs on the fresh database before the server started; read when the story starts,
// with the enrollment codes of its try.
let one: IssuedIdentity;
let two: IssuedIdentity;

const CLIENT_ID = 'careplane-console';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
// One phone, one story: the steps share the identities enrolled in the first one.
test.describe.configure({ mode: 'serial' });

type Answer = { status: number; body: Record<string, unknown> };
const form = async (url: string, params: Record<string, string>): Promise<Answer> => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...params }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

let baseUrl: string;
let discovery: { backchannel_authentication_endpoint: string; token_endpoint: string; issuer: string };

test.beforeAll(async () => {
  one = issuedIdentity('pwa.one@careplane.local');
  two = issuedIdentity('pwa.two@careplane.local');
  baseUrl = `http://127.0.0.1:${process.env.CAREPLANE_E2E_PORT}`;
  const response = await fetch(`${baseUrl}/auth/.well-known/openid-configuration`);
  expect(response.status).toBe(200);
  discovery = (await response.json()) as typeof discovery;
});

async function startLogin(loginHint: string, bindingMessage: string) {
  const started = await form(discovery.backchannel_authentication_endpoint, {
    scope: 'openid',
    login_hint: loginHint,
    binding_message: bindingMessage,
  });
  expect(started.status).toBe(200);
  return started.body as { auth_req_id: string; interval: number; expires_in: number };
}

/** Polls the token endpoint as a client does, at the given interval, until it answers something final. */
async function pollToken(authReqId: string, interval: number): Promise<Answer> {
  for (let attempt = 0; attempt < 20; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, interval * 1000 + 100));
    const answer = await form(discovery.token_endpoint, {
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: authReqId,
    });
    if (answer.body.error !== 'authorization_pending' && answer.body.error !== 'slow_down') return answer;
  }
  throw new Error('the sign-in stayed pending');
}

const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  return problems;
}

let page: Page;
let problems: string[];

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: `http://127.0.0.1:${process.env.CAREPLANE_E2E_PORT}`,
    viewport: { width: 390, height: 844 },
    // The installed app: its service worker is under test here.
    serviceWorkers: 'allow',
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  page = await context.newPage();
  problems = watchProblems(page);
});

test.afterAll(async () => {
  await page?.context().close();
});

test('enrolls one identity with its code and another with its link, keys made on the phone', async () => {
  const testInfo = test.info();
  await page.goto('/authenticator/');
  await expect(page).toHaveTitle('Careplane Authenticator');
  await expect(page.getByRole('heading', { level: 1, name: 'Careplane Authenticator' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Add your identity' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('1-empty.png'), fullPage: true });

  await page.getByLabel('Enrollment code or link').fill(one.code);
  await page.getByRole('button', { name: 'Add identity' }).click();
  await expect(page.getByRole('status')).toContainText(`(${one.username}) is now on this phone`);
  await expect(page.getByRole('heading', { name: 'Identities on this phone' })).toBeVisible();
  await expect(page.getByText(one.username, { exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('2-enrolled-with-code.png'), fullPage: true });

  // The same code a second time is refused: it was spent. (The browser logs the refusal; nothing else.)
  expect(problems).toEqual([]);
  await page.getByLabel('Enrollment code or link').fill(one.code);
  await page.getByRole('button', { name: 'Add identity' }).click();
  await expect(page.getByRole('status')).toContainText(
    'The identity was not added: Invalid, used or expired enrollment code',
  );
  expect(problems).toEqual([expect.stringContaining('status of 400')]);
  problems.length = 0;

  // Opening the enrollment link enrolls, and the code leaves the address bar.
  await page.goto(two.link);
  await expect(page.getByRole('status')).toContainText(`(${two.username}) is now on this phone`);
  expect(page.url()).toBe(`${baseUrl}/authenticator/`);
  await expect(page.getByText(two.username, { exact: true })).toBeVisible();
  await expect(page.getByText(one.username, { exact: true })).toBeVisible();

  // The private keys are in IndexedDB as non-extractable P-256 signing keys.
  const keys = await page.evaluate(
    () =>
      new Promise<{ extractable: boolean; algorithm: string; usages: string[] }[]>((resolve, reject) => {
        const open = indexedDB.open('careplane-authenticator');
        open.onerror = () => reject(new Error('IndexedDB did not open'));
        open.onsuccess = () => {
          const all = open.result.transaction('identities').objectStore('identities').getAll();
          all.onsuccess = () =>
            resolve(
              (all.result as { privateKey: CryptoKey }[]).map(({ privateKey }) => ({
                extractable: privateKey.extractable,
                algorithm: `${privateKey.algorithm.name}/${(privateKey.algorithm as EcKeyAlgorithm).namedCurve}`,
                usages: privateKey.usages,
              })),
            );
        };
      }),
  );
  expect(keys).toEqual([
    { extractable: false, algorithm: 'ECDSA/P-256', usages: ['sign'] },
    { extractable: false, algorithm: 'ECDSA/P-256', usages: ['sign'] },
  ]);
  await page.screenshot({ path: testInfo.outputPath('3-two-identities.png'), fullPage: true });
});

test('a CIBA sign-in appears with its binding message; approving it gives the client its tokens', async () => {
  const testInfo = test.info();
  const started = await startLogin(one.username, 'PW 4821');
  const request = page.getByRole('article', { name: /^Sign in to / });
  await expect(request).toBeVisible();
  await expect(request.getByTestId('binding-message')).toHaveText('PW 4821');
  await expect(request).toContainText(CLIENT_ID);
  await expect(request).toContainText(`(${one.username})`);
  await page.screenshot({ path: testInfo.outputPath('4-pending-login.png'), fullPage: true });

  await request.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status')).toContainText('Approved: sign-in to');
  await expect(request).toBeHidden();
  await page.screenshot({ path: testInfo.outputPath('5-approved.png'), fullPage: true });

  const tokens = await pollToken(started.auth_req_id, started.interval);
  expect(tokens.status).toBe(200);
  expect(tokens.body).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i) });
  expect(claimsOf(tokens.body.access_token as string)).toMatchObject({
    iss: discovery.issuer,
    aud: 'careplane-api',
    preferred_username: one.username,
  });
  // The ID token names the same person to this client; the refresh token works at the token endpoint.
  const access = claimsOf(tokens.body.access_token as string);
  expect(claimsOf(tokens.body.id_token as string)).toMatchObject({
    iss: discovery.issuer,
    aud: CLIENT_ID,
    sub: access.sub,
  });
  const refreshed = await form(discovery.token_endpoint, {
    grant_type: 'refresh_token',
    refresh_token: tokens.body.refresh_token as string,
  });
  expect(refreshed.status).toBe(200);
  expect(claimsOf(refreshed.body.access_token as string)).toMatchObject({
    sub: access.sub,
    preferred_username: one.username,
  });
});

test('denying a sign-in answers access_denied to the client', async () => {
  const started = await startLogin(two.username, 'DN 1234');
  const request = page.getByRole('article', { name: /^Sign in to / });
  await expect(request.getByTestId('binding-message')).toHaveText('DN 1234');
  await expect(request).toContainText(`(${two.username})`);
  await request.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('status')).toContainText('Denied: sign-in to');
  const answer = await pollToken(started.auth_req_id, started.interval);
  expect(answer).toMatchObject({ status: 400, body: { error: 'access_denied' } });
});

test('a QR sign-in link opened on the phone names the site, and claims only on confirmation', async () => {
  const testInfo = test.info();
  const created = await fetch(`${baseUrl}/auth/qr/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: CLIENT_ID, binding_message: 'QR 77' }),
  });
  expect(created.status).toBe(200);
  const session = (await created.json()) as { sessionId: string; cbUrl: string };

  await page.goto(session.cbUrl);
  expect(page.url()).toBe(`${baseUrl}/authenticator/`);
  const claim = page.getByRole('region', { name: `Sign in to 127.0.0.1:${process.env.CAREPLANE_E2E_PORT}?` });
  await expect(claim).toBeVisible();
  await claim.getByRole('radio', { name: new RegExp(one.username.replace('.', '\\.')) }).check();
  await page.screenshot({ path: testInfo.outputPath('6-qr-confirm.png'), fullPage: true });
  const before = await (await fetch(`${baseUrl}/auth/qr/sessions/${session.sessionId}`)).json();
  expect(before).toMatchObject({ status: 'pending' });

  await claim.getByRole('button', { name: 'Continue' }).click();
  const request = page.getByRole('article', { name: /^Sign in to / });
  await expect(request.getByTestId('binding-message')).toHaveText('QR 77');
  await expect(request).toContainText(`(${one.username})`);
  await request.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status')).toContainText('Approved: sign-in to');

  const status = (await (await fetch(`${baseUrl}/auth/qr/sessions/${session.sessionId}`)).json()) as {
    status: string;
    authRequestId: string;
  };
  expect(status.status).toBe('claimed');
  const tokens = await pollToken(status.authRequestId, 3);
  expect(tokens.status).toBe(200);
  expect(claimsOf(tokens.body.access_token as string)).toMatchObject({ preferred_username: one.username });
});

test('the app is installable: manifest and an active service worker for /authenticator/', async () => {
  const manifest = await fetch(`${baseUrl}/authenticator/manifest.webmanifest`);
  expect(manifest.headers.get('content-type')).toMatch(/application\/manifest\+json/);
  expect(await manifest.json()).toMatchObject({ start_url: '/authenticator/', display: 'standalone' });
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`${baseUrl}/authenticator/`);
  expect(problems).toEqual([]);
});
