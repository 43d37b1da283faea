// The console in Thai (decision 047): an admin switches the top bar to ไทย, the page reads Thai with
// <html lang="th">, a reload stays Thai (the choice is stored on the account), and /pharmacy, /prescriptions,
// the admin home and the users list have no serious or critical axe violations in Thai; the lists' cells
// read Thai too (a patient's status, Yes and No). A visitor whose browser prefers Thai gets the landing page
// in Thai, without axe violations either. With CAREPLANE_SHOTS_DIR set, the pages are photographed at 390 and
// 1440 px.
import path from 'node:path';
import { expectAccessible } from './support/admin.ts';
import { issuedIdentity, signInWithCliAuthenticator } from './support/cli-authenticator.ts';
import { expect, test, type Page } from './support/test.ts';

const shots = process.env.CAREPLANE_SHOTS_DIR;
const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1440, height: 900 } };

async function photograph(page: Page, name: string) {
  if (!shots) return;
  for (const [label, size] of Object.entries(sizes)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    // Thai letters come from a web font where the system has none: wait for it rather than photograph boxes.
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(shots, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(sizes.desktop);
}

test('an admin switches to Thai in the top bar; it stays after a reload and reads accessibly', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(sizes.desktop);
  await signInWithCliAuthenticator(page, issuedIdentity('console.thai@careplane.local'));
  await page.goto('/pharmacy');
  await expect(page.getByRole('heading', { level: 1, name: 'Waiting prescriptions' })).toBeVisible();

  const stored = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/users/me/preferences') && response.request().method() === 'PATCH',
  );
  await page.getByRole('banner').getByText('ไทย', { exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'ใบสั่งยาที่รอดำเนินการ' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'th');
  expect((await stored).status()).toBe(200);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'ใบสั่งยาที่รอดำเนินการ' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'เมนูร้านยา' })).toBeVisible();
  await expectAccessible(page);
  await photograph(page, 'pharmacy-th');

  await page.goto('/prescriptions');
  await expect(page.getByRole('heading', { level: 1, name: 'ใบสั่งยาที่รอดำเนินการ' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'เมนูใบสั่งยา' })).toBeVisible();
  await expectAccessible(page);
  await photograph(page, 'prescriptions-th');

  // The admin area in Thai: its home, a list, and the prescriptions list with the side menu's words.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'หน้าหลักผู้ดูแลระบบ' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'เมนู', exact: true })).toBeVisible();
  await expectAccessible(page);
  await photograph(page, 'admin-th');
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'ผู้ใช้งาน' })).toBeVisible();
  // Yes and No in the list's cells (Blocked) are Thai words, as the column headers are.
  await expect(page.getByRole('cell', { name: 'ไม่ใช่', exact: true }).first()).toBeVisible();
  await expectAccessible(page);
  await photograph(page, 'admin-users-th');
  // A patient's status in the patients list: enrolled patients (the demo's named ones are) read ลงทะเบียนแล้ว.
  await page.goto('/admin/patients?filters=patientProfile.status~enrolled');
  await expect(page.getByRole('heading', { level: 1, name: 'ผู้ป่วย' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'ลงทะเบียนแล้ว', exact: true }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'enrolled', exact: true })).toHaveCount(0);
  await page.goto('/admin/prescriptions');
  await expect(page.getByRole('heading', { level: 1, name: 'ใบสั่งยา' })).toBeVisible();
  await photograph(page, 'admin-prescriptions-th');
});

test.describe('a visitor whose browser prefers Thai', () => {
  test.use({ locale: 'th-TH' });
  test('gets the landing page in Thai', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'ดูแลผู้ป่วยที่บ้าน จัดการได้จากที่เดียว' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'th');
    await expect(page.getByRole('tab', { name: 'คิวอาร์โค้ด' })).toBeVisible();
    await expectAccessible(page);
    await photograph(page, 'landing-th');
  });
});
