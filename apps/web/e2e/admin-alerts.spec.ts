// Alerts as a care team reads them (docs/decisions/038): the home titles demo alerts from their readings; an
// alert sent with a message is found on the alerts page, acknowledged there (naming who did) and closed, and
// then listed among the closed ones.
import { expect, test, type Page } from './support/test.ts';
import { unique } from './support/admin.ts';

async function sendAlert(page: Page, name: string, message: string) {
  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill(name);
  await page.getByRole('link', { name, exact: true }).click();
  const care = page.getByRole('region', { name: 'Care actions' });
  await care.getByRole('button', { name: 'Send alert' }).click();
  const dialog = page.getByRole('dialog', { name: `Send an alert to ${name}` });
  await dialog.getByRole('textbox', { name: /Message/ }).fill(message);
  await dialog.getByRole('button', { name: 'Send alert' }).click();
  await expect(care.getByRole('alert').filter({ hasText: 'Alert sent' })).toBeVisible();
}

test('the home titles alerts from their readings and links to the alerts page', async ({ page }) => {
  await page.goto('/admin');
  const panel = page.getByRole('region', { name: /^Open alerts \(\d+\)$/ });
  const list = panel.getByRole('list', { name: 'Open alerts' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  await expect(list).not.toContainText('No user named');
  await expect(list).not.toContainText('out of bounds');
  await panel.getByRole('link', { name: 'All alerts' }).click();
  await expect(page).toHaveURL(/\/admin\/alerts$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
});

test('an alert is acknowledged and closed from the alerts page', async ({ page }) => {
  const message = unique('Please call the nurse');
  await sendAlert(page, 'Malee Srisawat', message);

  await page.goto('/admin/alerts');
  const entry = page.getByRole('listitem', { name: message });
  await expect(entry).toContainText('Malee Srisawat');
  await entry.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(entry).toContainText(/Acknowledged by .+ on /);
  await expect(entry).toContainText('Open, acknowledged');

  await entry.getByRole('button', { name: 'Close…' }).click();
  await entry.getByRole('textbox', { name: 'What was done' }).fill('Called back, all is well');
  await entry.getByRole('button', { name: 'Close alert' }).click();
  // Closed, it leaves the open alerts and is among the closed ones.
  await expect(entry).toHaveCount(0);
  // The segmented control's radios are hidden behind their labels.
  await page.getByRole('region', { name: 'Filters' }).getByText('Closed', { exact: true }).click();
  await expect(page).toHaveURL(/status=closed/);
  const closed = page.getByRole('listitem', { name: message });
  await expect(closed).toContainText(/Closed by .+ on .+\. Closing note: Called back, all is well/);
});
