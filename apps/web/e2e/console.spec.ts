import { expect, test, type Page } from './support/test.ts';

/** Page errors and console errors seen while the test ran: a healthy page has none. */
function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  return problems;
}

test('the landing page shows the product, the statements, the way to log in and the footer', async ({
  page,
}, testInfo) => {
  const problems = watchProblems(page);
  await page.goto('/');
  await expect(page).toHaveTitle('Careplane');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('The platform and its apps are free.')).toBeVisible();
  await expect(page.getByText('We never ask for your payment details.')).toBeVisible();
  await expect(page.getByText(/provided as is/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'QR code' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'User ID' })).toBeVisible();
  const documents = page.getByRole('region', { name: 'Documents' });
  await expect(documents.getByText('Download the mobile app.')).toBeVisible();
  await expect(documents.getByText('Google Play')).toBeVisible();
  await expect(documents.getByText('App Store')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveText('Careplane 0.3.0');

  await page.screenshot({ path: testInfo.outputPath('landing.png'), fullPage: true });
  expect(problems).toEqual([]);
});

test('the Support and Privacy modals open with their texts', async ({ page, request }, testInfo) => {
  const { supportEmail } = (await (await request.get('/config.json')).json()) as { supportEmail: string };
  await page.goto('/');

  await page.getByRole('button', { name: 'Support' }).click();
  const support = page.getByRole('dialog', { name: 'Support' });
  await expect(support.getByRole('link', { name: supportEmail })).toHaveAttribute(
    'href',
    `mailto:${supportEmail}`,
  );
  await page.keyboard.press('Escape');
  await expect(support).toBeHidden();

  await page.getByRole('button', { name: 'Privacy' }).click();
  const privacy = page.getByRole('dialog', { name: 'Privacy policy' });
  for (const text of [
    'your IP address;',
    'timestamps of your requests;',
    'the referring page that linked you here.',
  ]) {
    await expect(privacy.getByText(text)).toBeVisible();
  }
  await expect(privacy.getByText(/details of your browser/)).toBeVisible();
  for (const heading of [
    'Cookies',
    'Links to third-party sites',
    'Security',
    'Changes to this policy',
    'Contact',
  ]) {
    await expect(privacy.getByRole('heading', { name: heading })).toBeVisible();
  }
  await expect(privacy.getByText(/effective as of 01\.12\.2020/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('privacy.png') });
});

test('the login page offers the QR code and the user ID', async ({ page }, testInfo) => {
  const problems = watchProblems(page);
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show QR code' })).toBeVisible();
  await page.getByRole('tab', { name: 'User ID' }).click();
  await expect(page.getByRole('textbox', { name: /User ID/ })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveText('Careplane 0.3.0');
  await page.screenshot({ path: testInfo.outputPath('login.png'), fullPage: true });
  expect(problems).toEqual([]);
});

test('QR login draws the session of the real auth server on a canvas and counts down', async ({
  page,
}, testInfo) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Show QR code' }).click();
  const image = page.getByRole('img', { name: 'QR code to scan with the Careplane app' });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(page.getByTestId('binding-message')).toHaveText(/^[A-Z]{2} \d{2}$/);
  const first = Number(
    (await page.getByText(/The request expires in \d+ s\./).textContent())?.match(/\d+/)?.[0],
  );
  // The countdown shrinks by the poll interval each round (3 s by default).
  await expect
    .poll(
      async () => Number((await page.getByText(/The request expires in/).textContent())?.match(/\d+/)?.[0]),
      {
        timeout: 8000,
      },
    )
    .toBeLessThan(first);
  await page.screenshot({ path: testInfo.outputPath('login-qr.png'), fullPage: true });
});

test('login by user ID sends a backchannel request and shows the binding message', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('tab', { name: 'User ID' }).click();
  await page.getByRole('textbox', { name: /User ID/ }).fill('nobody@careplane.test');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(/A sign-in request was sent to the phone of/)).toBeVisible();
  await expect(page.getByTestId('binding-message')).toHaveText(/^[A-Z]{2} \d{2}$/);
  await expect(page.getByText(/The request expires in \d+ s\./)).toBeVisible();
  // authorization_pending is not an error: the request stays pending.
  await page.waitForTimeout(3500);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('an unknown address shows the 404 page with a way home', async ({ page }, testInfo) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(200);
  await expect(page.getByText('This page could not be found')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('not-found.png'), fullPage: true });
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
});

test('the guard sends a visitor without a session to the front page', async ({ page }) => {
  const response = await page.goto('/admin/users?page=2');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
});

test('the guard logs out an expired session with a notification', async ({ page }) => {
  // The session as the console persists it (localStorage "careplane.session"), expired ten seconds ago.
  const expired = {
    loginStatus: 'approved',
    loginMethod: 'backchannel',
    accessToken: 'expired-token',
    accessTokenExpiration: Math.floor(Date.now() / 1000) - 10,
    user: { firstName: 'Ada', lastName: 'Lovelace', roles: ['admin'], localRoles: [] },
  };
  await page.goto('/');
  // The console stores its session once it has started (with the server address): write the expired one
  // after that, or the starting page would write its own over it.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(
    `localStorage.setItem('careplane.session', ${JSON.stringify(JSON.stringify(expired))})`,
  );
  await page.goto('/account');
  await expect(page.getByText('Your session has expired. You have been logged out.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const stored = await page.evaluate("JSON.parse(localStorage.getItem('careplane.session') ?? '{}')");
  expect(stored).toMatchObject({ accessToken: null, loginStatus: 'logged out' });
});

test('the API answers beside the console', async ({ request }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', version: '0.3.0' });

  const settings = await request.get('/config.json');
  expect(settings.status()).toBe(200);
  expect(await settings.json()).toMatchObject({ mapsRegion: 'TH', mapsLanguage: 'th' });

  const unknown = await request.get('/api/unknown');
  expect(unknown.headers()['content-type']).toMatch(/^application\/json/);
});
