// Signing in to the console in Chromium against the real server, with the command-line authenticator
// (`careplane authenticator enroll|approve|deny|scan`) as the phone: the QR code read back from the screen and
// claimed, the user identifier approved or denied by the code the console shows, admins landing in /admin and everyone else in /account,
// requests that time out, the session expiry dialog, and the admin menu. Each test enrolls its own identity
// (made by scripts/e2e-server.mjs before the server started) into a store of its own.
/// <reference lib="dom" />
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jsqr from 'jsqr';
import { careplane, issuedIdentity, type IssuedIdentity } from './support/cli-authenticator.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';

// jsqr is a CommonJS module whose exports are the decoder, also reachable as `default` (as its types say).
const jsQR = jsqr.default;
const repo = path.resolve(import.meta.dirname, '../../..');
const SESSION_KEY = 'careplane.session';

// Sign-ins wait for a command-line authenticator that starts through tsx on a busy machine.
test.describe.configure({ timeout: 150_000 });

const mainServer = {
  baseUrl: `http://127.0.0.1:${process.env.CAREPLANE_E2E_PORT}`,
  identity: (username: string) => issuedIdentity(username),
};

// ---------------------------------------------------------------------------------------------------------
// The command-line authenticator

const storeFolders: string[] = [];
test.afterAll(() => {
  for (const folder of storeFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A fresh key store holding the identity, enrolled with its one-time link. */
async function enroll(identity: IssuedIdentity): Promise<string> {
  const folder = mkdtempSync(path.join(tmpdir(), 'careplane-e2e-store-'));
  storeFolders.push(folder);
  const store = path.join(folder, 'authenticator.json');
  const enrolled = await careplane(['authenticator', 'enroll', '--store', store, identity.link]);
  expect(enrolled.code).toBe(0);
  expect(enrolled.out).toContain(`Enrolled ${identity.username}`);
  return store;
}

// ---------------------------------------------------------------------------------------------------------
// The console

/** Starts a sign-in by user identifier; returns the binding message the console shows. */
async function requestSignIn(page: Page, baseUrl: string, identity: IssuedIdentity): Promise<string> {
  await page.goto(`${baseUrl}/`);
  await page.getByRole('tab', { name: 'User ID' }).click();
  await page.getByRole('textbox', { name: /User ID/ }).fill(identity.username);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(/A sign-in request was sent to the phone of/)).toContainText(identity.username);
  const binding = page.getByTestId('binding-message');
  await expect(binding).toHaveText(/^[A-Z]{2} \d{2}$/);
  return (await binding.textContent()) ?? '';
}

/**
 * Signs in by user identifier; the command-line authenticator answers the request whose code the console
 * shows, as a person reads it off the screen.
 */
async function signInWithIdentifier(
  page: Page,
  baseUrl: string,
  identity: IssuedIdentity,
  { deny = false } = {},
) {
  const store = await enroll(identity);
  const shown = await requestSignIn(page, baseUrl, identity);
  const answer = await careplane([
    'authenticator',
    deny ? 'deny' : 'approve',
    '--store',
    store,
    '--username',
    identity.username,
    '--code',
    shown,
    '--wait',
    '30',
  ]);
  expect(answer.code, answer.err).toBe(0);
  expect(answer.out).toContain(`Sign-in request from`);
  // The code on the screen is the one the phone was asked to compare.
  expect(answer.out).toContain(`Binding message: ${shown}\n`);
  expect(answer.out).toContain(deny ? 'Denied.' : 'Approved.');
  return shown;
}

const signedInAs = async (page: Page, identity: IssuedIdentity) => {
  await expect(page.getByTestId('top-bar-user')).toHaveText(`${identity.firstName} ${identity.lastName}`);
  await expect(page.getByRole('button', { name: /^Disconnect \(\d+ s\)$/ })).toBeVisible();
};

const storedSession = (page: Page) =>
  page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>,
    SESSION_KEY,
  );

/** Reads the QR code back from a screenshot of what the page shows, as a phone camera would. */
async function readQrCode(page: Page, image: Locator, screenshotPath: string): Promise<string> {
  const png = await image.screenshot({ path: screenshotPath });
  // The browser decodes the screenshot's PNG into pixels; jsQR finds and reads the code in them.
  const pixels = await page.evaluate(async (base64) => {
    const picture = new Image();
    picture.src = `data:image/png;base64,${base64}`;
    await picture.decode();
    const canvas = document.createElement('canvas');
    canvas.width = picture.naturalWidth;
    canvas.height = picture.naturalHeight;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No 2D canvas');
    context.drawImage(picture, 0, 0);
    const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
    return { data: Array.from(data), width, height };
  }, png.toString('base64'));
  const code = jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height);
  expect(code, 'a readable QR code on the screen').not.toBeNull();
  return code?.data ?? '';
}

// ---------------------------------------------------------------------------------------------------------
// Against the e2e server

test('login by user ID approved on the phone lands an admin in /admin', async ({ page }, testInfo) => {
  const admin = mainServer.identity('console.admin@careplane.local');
  await signInWithIdentifier(page, mainServer.baseUrl, admin);
  await expect(page).toHaveURL(`${mainServer.baseUrl}/admin`);
  await signedInAs(page, admin);
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeVisible();
  // A session of the normal lifetime asks nothing.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await storedSession(page)).toMatchObject({
    loginStatus: 'approved',
    loginMethod: 'backchannel',
    userIdentifier: admin.username,
  });
  await page.screenshot({ path: testInfo.outputPath('admin-signed-in.png'), fullPage: true });
});

test('login by user ID lands everyone else in /account, and /admin sends them back there', async ({
  page,
}, testInfo) => {
  const user = mainServer.identity('console.user@careplane.local');
  await signInWithIdentifier(page, mainServer.baseUrl, user);
  await expect(page).toHaveURL(`${mainServer.baseUrl}/account`);
  await signedInAs(page, user);
  await expect(page.getByText(user.username).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the admin area' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('account-signed-in.png'), fullPage: true });

  await page.goto(`${mainServer.baseUrl}/admin`);
  await expect(page).toHaveURL(`${mainServer.baseUrl}/account`);
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toHaveCount(0);
  await signedInAs(page, user);
});

test('QR login: the code read from the screen, claimed and approved by the phone, opens /admin', async ({
  page,
}, testInfo) => {
  const admin = mainServer.identity('console.qr@careplane.local');
  const store = await enroll(admin);
  await page.goto(`${mainServer.baseUrl}/login`);
  await page.getByRole('button', { name: 'Show QR code' }).click();
  const image = page.getByRole('img', { name: 'QR code to scan with the Careplane app' });
  await expect(image).toBeVisible();
  const binding = page.getByTestId('binding-message');
  await expect(binding).toHaveText(/^[A-Z]{2} \d{2}$/);
  const shown = (await binding.textContent()) ?? '';
  await page.screenshot({ path: testInfo.outputPath('qr-login.png'), fullPage: true });

  const link = await readQrCode(page, image, testInfo.outputPath('qr-code.png'));
  expect(link).toMatch(new RegExp(`^${mainServer.baseUrl.replace(/\./g, '\\.')}/authenticator/qr#s=`));

  const scanned = await careplane([
    'authenticator',
    'scan',
    '--store',
    store,
    '--username',
    admin.username,
    '--approve',
    link,
  ]);
  expect(scanned.code).toBe(0);
  expect(scanned.out).toContain(`Claimed the sign-in for ${admin.username}`);
  expect(scanned.out).toContain(`Binding message: ${shown}\n`);
  expect(scanned.out).toContain('Approved.');

  await expect(page).toHaveURL(`${mainServer.baseUrl}/admin`);
  await signedInAs(page, admin);
  expect(await storedSession(page)).toMatchObject({ loginStatus: 'approved', loginMethod: 'qr' });
  await page.screenshot({ path: testInfo.outputPath('qr-signed-in.png'), fullPage: true });
});

test('a sign-in denied on the phone shows the denial', async ({ page }, testInfo) => {
  const identity = mainServer.identity('console.denied@careplane.local');
  await signInWithIdentifier(page, mainServer.baseUrl, identity, { deny: true });
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Sign-in failed');
  await expect(alert).toContainText('The sign-in was denied on the phone.');
  await expect(page).toHaveURL(`${mainServer.baseUrl}/`);
  expect(await storedSession(page)).toMatchObject({ loginStatus: 'error', accessToken: null });
  await page.screenshot({ path: testInfo.outputPath('login-denied.png'), fullPage: true });
});

test('the admin menu opens with Menu, closes with Close Menu and on a route change', async ({
  page,
}, testInfo) => {
  const admin = mainServer.identity('console.menu@careplane.local');
  await signInWithIdentifier(page, mainServer.baseUrl, admin);
  await expect(page).toHaveURL(`${mainServer.baseUrl}/admin`);
  const menu = page.getByRole('navigation', { name: 'Admin menu' });
  const open = page.getByRole('button', { name: 'Menu', exact: true });
  const close = page.getByRole('button', { name: 'Close Menu', exact: true });

  // The menu starts closed: off the screen.
  await expect(open).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).not.toBeInViewport();

  await open.click();
  await expect(menu).toBeInViewport();
  await expect(close).toHaveAttribute('aria-expanded', 'true');
  for (const entry of [
    'Users',
    'Patients',
    'Devices',
    'Device Jobs',
    'Command Centers',
    'Settings',
    'Home',
  ]) {
    await expect(menu.getByRole('link', { name: entry, exact: true })).toBeVisible();
  }
  await expect(menu.getByRole('button', { name: 'Disconnect' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('admin-menu-open.png'), animations: 'disabled' });

  await close.click();
  await expect(menu).not.toBeInViewport();
  await expect(open).toBeVisible();

  // Following an entry changes the route, and the menu closes.
  await open.click();
  await expect(menu).toBeInViewport();
  await menu.getByRole('link', { name: 'Users', exact: true }).click();
  await expect(page).toHaveURL(`${mainServer.baseUrl}/admin/users`);
  await expect(menu).not.toBeInViewport();
  await expect(open).toHaveAttribute('aria-expanded', 'false');
  await page.screenshot({ path: testInfo.outputPath('admin-menu-closed-after-navigation.png') });
});

// ---------------------------------------------------------------------------------------------------------
// Against servers of their own with short lifetimes: sign-in requests of 10 s for the time-outs, and access
// tokens of 90 s for the expiry dialog (a sign-in there keeps the usual request lifetime: on a loaded machine the
// phone's approval can take longer than 10 s).

interface StartedServer {
  baseUrl: string;
  identity: (username: string) => IssuedIdentity;
  stop: () => Promise<void>;
}

/** Starts another e2e server (scripts/e2e-server.mjs: fresh database, own port) with extra settings. */
function startServer(env: Record<string, string>): Promise<StartedServer> {
  return new Promise((resolve, reject) => {
    // A process group of its own, ended whole (as Playwright ends its web server): the script starts the
    // server through npm and a shell, and a SIGTERM to the script alone left the server itself running.
    const child = spawn(process.execPath, ['scripts/e2e-server.mjs'], {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.once('exit', (code) => reject(new Error(`The e2e server stopped (exit ${code}):\n${log}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      const port = /ready on port (\d+)/.exec(chunk.toString())?.[1];
      if (!port) return;
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        identity: (username) => issuedIdentity(username, port),
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
          await exited;
        },
      });
    });
  });
}

/** A server of its own with `env` for the tests of one describe block, started before them and stopped after. */
function serverOfItsOwn(env: Record<string, string>) {
  let server: StartedServer | undefined;
  test.beforeAll(async () => {
    // A server of its own starts (migrations, keys) in seconds, or in a minute on a machine busy with others.
    test.setTimeout(180_000);
    server = await startServer(env);
  });
  test.afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('The server with short lifetimes did not start');
    return server;
  };
}

test.describe('with short lifetimes', () => {
  test.describe.configure({ mode: 'serial', timeout: 240_000 });
  const running = serverOfItsOwn({ AUTH_REQUEST_TTL: '10' });

  test('a sign-in request nobody answers times out', async ({ page }, testInfo) => {
    const { baseUrl, identity } = running();
    await requestSignIn(page, baseUrl, identity('console.late@careplane.local'));
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Authentication request timed out.', { timeout: 40_000 });
    await expect(page.getByTestId('binding-message')).toHaveCount(0);
    expect(await storedSession(page)).toMatchObject({ loginStatus: 'error', accessToken: null });
    await page.screenshot({ path: testInfo.outputPath('login-timed-out.png'), fullPage: true });
  });

  test('a QR code nobody scans times out', async ({ page }) => {
    const { baseUrl } = running();
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('button', { name: 'Show QR code' }).click();
    await expect(page.getByRole('img', { name: 'QR code to scan with the Careplane app' })).toBeVisible();
    await expect(page.getByText(/The request expires in \d+ s\./)).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('Authentication request timed out.', {
      timeout: 40_000,
    });
    await expect(page.getByRole('img', { name: 'QR code to scan with the Careplane app' })).toHaveCount(0);
  });
});

test.describe('with a short session', () => {
  test.describe.configure({ timeout: 240_000 });
  const running = serverOfItsOwn({ AUTH_ACCESS_TOKEN_TTL: '90' });

  test('a session near its end opens the expiry dialog; Understood goes to the front page', async ({
    page,
  }, testInfo) => {
    const { baseUrl, identity } = running();
    const admin = identity('console.expiry@careplane.local');
    await signInWithIdentifier(page, baseUrl, admin);
    await expect(page).toHaveURL(`${baseUrl}/admin`);
    // A 90-second token is below the 100 seconds at which the console warns, from its first second.
    const dialog = page.getByRole('dialog', { name: 'Your session has expired' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('You will be redirected to front page. Login again to continue.');
    await page.screenshot({ path: testInfo.outputPath('session-expiry-dialog.png'), animations: 'disabled' });
    // Escape does not dismiss it.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();

    await dialog.getByRole('button', { name: 'Understood' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(`${baseUrl}/`);
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    expect(await storedSession(page)).toMatchObject({ loginStatus: 'logged out', accessToken: null });
  });
});
