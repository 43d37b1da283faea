// The console in Thai (decision 047): an admin switches the top bar to ไทย, the page reads Thai with
// <html lang="th">, a reload stays Thai (the choice is stored on the account), and /pharmacy, /prescriptions,
// the admin home and the users list have no serious or critical axe violations in Thai; the lists' cells
// read Thai too (a patient's status, Yes and No). A visitor whose browser prefers Thai gets the landing page
// in Thai, without axe violations either. At a phone's 390 px no page runs past the screen's edge, the custody
// areas' tabs are whole, and the prescriptions list shows each one's status. With CAREPLANE_SHOTS_DIR set, the
// pages are photographed at 390 and 1440 px. At 360 px, tapped with a finger, the landing page's top bar stays
// inside the screen and each language of its switch is a finger's 44 px.
import path from 'node:path';
import { expectAccessible } from './support/admin.ts';
import { issuedIdentity, signInWithCliAuthenticator } from './support/cli-authenticator.ts';
import { expect, test, type Page } from './support/test.ts';

const shots = process.env.CAREPLANE_SHOTS_DIR;
const sizes = { 390: { width: 390, height: 844 }, 1440: { width: 1440, height: 900 } };

/**
 * Looks at a page at a phone's 390 px and a desktop's 1440 px: at 390 nothing runs past the screen's edge
 * (the document is no wider than the viewport), and `onPhone` checks what else a phone must show. With
 * CAREPLANE_SHOTS_DIR set, each width is photographed as <name>-390.png and <name>-1440.png.
 */
async function atBothWidths(page: Page, name: string, onPhone?: () => Promise<void>) {
  for (const [width, size] of Object.entries(sizes)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    // Thai letters come from a web font where the system has none: wait for it rather than photograph boxes.
    await page.evaluate(() => document.fonts.ready);
    if (width === '390') {
      const widths = await page.evaluate(() => ({
        document: document.documentElement.scrollWidth,
        viewport: window.innerWidth,
      }));
      expect(widths.document, `${name}: the page is wider than a phone`).toBeLessThanOrEqual(widths.viewport);
      await onPhone?.();
    }
    if (shots) await page.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(sizes[1440]);
}

/** Every tab of a custody area's menu, Logout the last, lies whole inside a phone's screen. */
async function tabsInsideTheScreen(page: Page, menu: string) {
  const entries = page.getByRole('navigation', { name: menu }).locator('a, button');
  expect(await entries.count()).toBeGreaterThan(1);
  for (const entry of await entries.all()) {
    const box = await entry.boundingBox();
    expect(box, `${await entry.innerText()} is drawn`).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${await entry.innerText()} is cut at the edge`).toBeLessThanOrEqual(
      sizes[390].width,
    );
  }
}

test('an admin switches to Thai in the top bar; it stays after a reload and reads accessibly', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(sizes[1440]);
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
  await atBothWidths(page, 'pharmacy', () => tabsInsideTheScreen(page, 'เมนูร้านยา'));

  await page.goto('/prescriptions');
  await expect(page.getByRole('heading', { level: 1, name: 'ใบสั่งยาที่รอดำเนินการ' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'เมนูใบสั่งยา' })).toBeVisible();
  await expectAccessible(page);
  await atBothWidths(page, 'prescriptions', () => tabsInsideTheScreen(page, 'เมนูใบสั่งยา'));

  // The admin area in Thai: its home, a list, and the prescriptions list with the side menu's words.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'หน้าหลักผู้ดูแลระบบ' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'เมนู', exact: true })).toBeVisible();
  await expectAccessible(page);
  await atBothWidths(page, 'admin-home');
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'ผู้ใช้งาน' })).toBeVisible();
  // Yes and No in the list's cells (Blocked) are Thai words, as the column headers are.
  await expect(page.getByRole('cell', { name: 'ไม่ใช่', exact: true }).first()).toBeVisible();
  await expectAccessible(page);
  await atBothWidths(page, 'admin-users');
  // A patient's status in the patients list: enrolled patients (the demo's named ones are) read ลงทะเบียนแล้ว.
  await page.goto('/admin/patients?filters=patientProfile.status~enrolled');
  await expect(page.getByRole('heading', { level: 1, name: 'ผู้ป่วย' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'ลงทะเบียนแล้ว', exact: true }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'enrolled', exact: true })).toHaveCount(0);
  await page.goto('/admin/prescriptions');
  await expect(page.getByRole('heading', { level: 1, name: 'ใบสั่งยา' })).toBeVisible();
  // A phone shows what a prescription holds and its status side by side: a long content wraps rather than push
  // the status out of sight.
  await atBothWidths(page, 'admin-prescriptions', async () => {
    // A sortable column's header is a button to click (the table names it so), the cell that holds it a th.
    const status = page.getByRole('table', { name: 'ใบสั่งยา' }).locator('th', { hasText: 'สถานะ' });
    await expect(status).toBeInViewport({ ratio: 1 });
  });
});

test.describe('a visitor whose browser prefers Thai', () => {
  test.use({ locale: 'th-TH' });
  test('gets the landing page in Thai', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'ดูแลผู้ป่วยที่บ้าน จัดการได้จากที่เดียว' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'th');
    await expect(page.getByRole('tab', { name: 'คิวอาร์โค้ด' })).toBeVisible();
    await expectAccessible(page);
    // A mouse's target: WCAG's 24 px at least.
    for (const box of await languageOptionBoxes(page)) expect(box.height).toBeGreaterThanOrEqual(24);
    await atBothWidths(page, 'landing');
  });

  test.describe('on a 360 px phone, tapped with a finger', () => {
    test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
    test('the top bar stays inside the screen and each language takes a finger', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'ความเป็นส่วนตัว' })).toBeInViewport({ ratio: 1 });
      await page.evaluate(() => document.fonts.ready);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      for (const box of await languageOptionBoxes(page)) {
        expect(box.height).toBeGreaterThanOrEqual(44);
        expect(box.width).toBeGreaterThanOrEqual(44);
      }
    });
  });
});

/** Where each choice of the language switch is drawn (its label is what a click or a tap lands on). */
async function languageOptionBoxes(page: Page) {
  const labels = page.locator('.mantine-SegmentedControl-label');
  await expect(labels).toHaveCount(2);
  return Promise.all((await labels.all()).map(async (label) => (await label.boundingBox())!));
}
