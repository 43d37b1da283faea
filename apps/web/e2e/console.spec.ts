import { expect, test } from '@playwright/test';

test('the console page names the product and its version', async ({ page }, testInfo) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });

  await page.goto('/');
  await expect(page).toHaveTitle('Careplane');
  await expect(page.getByRole('heading', { level: 1, name: 'Careplane' })).toBeVisible();
  await expect(page.getByText(/console .* is coming soon/i)).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveText('Careplane 0.3.0');

  await page.screenshot({ path: testInfo.outputPath('console-home.png'), fullPage: true });
  expect(problems).toEqual([]);
});

test('a deep link into the console opens the console', async ({ page }) => {
  const response = await page.goto('/admin/users?page=2');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('contentinfo')).toHaveText('Careplane 0.3.0');
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
