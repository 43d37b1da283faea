// List views: a copied address reopens the same view (filters, sort, page, page size), Back and Forward step
// through views, and Export CSV writes the rows the screen shows.
import { readFileSync } from 'node:fs';
import { expect, test } from './support/test.ts';
import { openFilters, pickOption } from './support/admin.ts';

test('a copied list address restores filters, sort, page and page size in a new page; Back and Forward work', async ({
  page,
  context,
}) => {
  await page.goto('/admin/users');
  await openFilters(page);
  await pickOption(page, 'Blocked', 'No');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: /^Username/ }).click();
  await expect(page).toHaveURL(/sort=username%3Aasc/);
  // The page-size menu opens at the foot of the list, scrolled into the window first. While the sorted rows
  // are still arriving the menu may close again under the pointer (seen on a loaded machine): open it and
  // pick 10 until the list shows ten rows.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(async () => {
    await page
      .getByRole('combobox', { name: 'Rows per page' })
      .or(page.getByRole('button', { name: /^(10|20)$/ }))
      .first()
      .click({ timeout: 5_000 });
    await page
      .getByRole('option', { name: '10' })
      .or(page.getByRole('menuitem', { name: '10' }))
      .first()
      .click({ timeout: 3_000 });
    await expect(page.locator('table tbody tr')).toHaveCount(10, { timeout: 3_000 });
  }).toPass({ timeout: 25_000 });
  const firstOfPageOne = (await page.locator('table tbody tr').first().textContent()) ?? '';
  await Promise.all([
    page.waitForResponse(
      (answer) => answer.url().includes('/api/users?') && answer.url().includes('offset=10'),
    ),
    page.getByRole('button', { name: 'Page 2' }).click(),
  ]);
  await expect(page).toHaveURL(/page=2/);
  // The previous page stays on screen until the next has arrived and is drawn.
  await expect(page.locator('table tbody tr').first()).not.toHaveText(firstOfPageOne);
  const firstRow = await page.locator('table tbody tr').first().textContent();
  const copied = page.url();
  expect(copied).toMatch(/filters=isBlocked%7Efalse/);
  expect(copied).toMatch(/pageSize=10/);

  const other = await context.newPage();
  await other.goto(copied);
  await expect(other.locator('table tbody tr')).toHaveCount(10);
  await expect(other.locator('table tbody tr').first()).toHaveText(firstRow ?? '');
  await expect(other.getByRole('button', { name: 'Page 2' })).toHaveAttribute('data-active', 'true');
  await expect(other.getByRole('combobox', { name: 'Blocked' })).toHaveValue('No');

  await page.goBack();
  await expect(page).not.toHaveURL(/page=2/);
  await expect(page.getByRole('button', { name: 'Page 1' })).toHaveAttribute('data-active', 'true');
  await page.goForward();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.locator('table tbody tr').first()).toHaveText(firstRow ?? '');
});

test('Export CSV of a filtered list holds the rows on screen', async ({ page }) => {
  await page.goto('/admin/users?filters=localRoles~nurse&pageSize=100&sort=username:asc');
  await expect(page.locator('table tbody tr').first()).toBeVisible();
  // The name as the row's link says it (a name in the local script, under it, is the screen's alone).
  const shown = await page.locator('table tbody tr td:nth-child(1) a').allTextContents();
  expect(shown.length).toBeGreaterThan(0);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^users .*\.csv$/i);
  const csv = readFileSync(await download.path(), 'utf8');
  const lines = csv.trim().split(/\r?\n/);
  const header = lines[0]!.split(',').map((cell) => cell.replace(/^"|"$/g, ''));
  const nameAt = header.indexOf('Name');
  expect(nameAt).toBeGreaterThanOrEqual(0);
  const names = lines
    .slice(1)
    .map((line) =>
      (line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? [])[nameAt]!.replace(/,$/, '').replace(/^"|"$/g, ''),
    );
  expect(names).toEqual(shown);
});

test('a list wider than the screen keeps each row’s name in sight, over the cells scrolled beneath it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/users');
  const viewport = page.locator('.mantine-ScrollArea-viewport:has(table)');
  const name = page.locator('table tbody tr').first().locator('td').first();
  await expect(name).toBeVisible();
  const scrollable = await viewport.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(scrollable, 'the users list is wider than 1280 px').toBeGreaterThan(100);
  const before = await name.boundingBox();
  await viewport.evaluate((element) => (element.scrollLeft = element.scrollWidth));
  await expect.poll(() => viewport.evaluate((element) => element.scrollLeft)).toBeGreaterThan(100);
  // The name cell has not moved, and at its middle it is the name that shows, not a cell scrolled under it.
  expect((await name.boundingBox())?.x).toBe(before?.x);
  const onTop = await name.evaluate((cell) => {
    const box = cell.getBoundingClientRect();
    return cell.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
  });
  expect(onTop).toBe(true);
  expect(await name.evaluate((cell) => getComputedStyle(cell).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
});
