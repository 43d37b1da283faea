// Landmarks, headings and the keyboard on every kind of page, on a phone (390×844) and a desktop (1440×900):
// one h1, one banner, "Skip to content" as the first Tab stop moving the focus to the main content, no Tab
// stop on anything out of sight (the closed admin menu above all), badges never cut, and axe-core (colour
// contrast included) without a serious or critical violation, on the pages and on the promotion dialog.
import { expect, test, type Page } from './support/test.ts';
import { expectAccessible, pickOption } from './support/admin.ts';

const viewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
];

/** Pages of a signed-in admin, and how each shows that it has settled. */
const signedIn = [
  '/admin',
  '/admin/users',
  '/admin/devices/jobs',
  '/admin/users/edit',
  '/admin/command-centers/create',
  '/admin/settings',
  '/account',
  '/documents',
];
const publicPages = ['/', '/login', '/verify', '/nowhere'];
const centred = ['/login', '/nowhere'];

async function settled(page: Page) {
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
}

/** What has the focus, and whether it can be seen: drawn, and inside the window. */
function focusedElement(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return { name: 'body', visible: true };
    // A switch draws itself beside its input, which stays at opacity 0 (Mantine's Switch) while the label shows
    // the focus ring: then the label is what must be seen.
    const visible = (node: Element) =>
      node.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const label = element instanceof HTMLInputElement ? element.labels?.[0] : undefined;
    const shown = !visible(element) && label ? label : element;
    const rect = shown.getBoundingClientRect();
    const drawn = visible(shown);
    const inWindow =
      rect.width > 0 &&
      rect.height > 0 &&
      rect.right > 0 &&
      rect.bottom > 0 &&
      rect.left < window.innerWidth &&
      rect.top < window.innerHeight;
    const name = `${element.tagName.toLowerCase()} “${(element.textContent ?? '').trim().slice(0, 40)}”`;
    return { name, visible: drawn && inWindow };
  });
}

/** Badges whose text does not fit them (an ellipsis, or text running out of the badge). */
function cutBadges(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.mantine-Badge-root, .mantine-Badge-label'))
      .filter((badge) => badge.scrollWidth > badge.clientWidth + 1)
      .map((badge) => badge.textContent ?? ''),
  );
}

async function checkPage(page: Page, path: string) {
  await page.goto(path);
  await settled(page);
  await expect(page.locator('h1')).toHaveCount(1);
  // The centred layouts (sign-in, error pages) have no top bar, hence no banner; every other page has one.
  await expect(page.getByRole('banner')).toHaveCount(centred.includes(path) ? 0 : 1);
  await expect(page.getByRole('main')).toHaveCount(1);
  expect(await cutBadges(page), 'badges cut short').toEqual([]);

  // The first Tab stop is the skip link, and it takes the focus to the main content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  expect(new URL(page.url()).hash).toBe('');

  // From the top, fifteen Tab stops land only on what can be seen (the closed admin menu is not one of them).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let step = 1; step <= 15; step += 1) {
    await page.keyboard.press('Tab');
    const focused = await focusedElement(page);
    expect(focused.visible, `Tab ${step} on ${path} lands on ${focused.name}, out of sight`).toBe(true);
  }

  // Colours as they are at rest: nothing hovered, nothing focused (a focused select has its option list open).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300);
  await expectAccessible(page);
}

for (const viewport of viewports) {
  test.describe(`on a ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const path of signedIn) {
      test(`${path} has one h1, one banner, the skip link first and no hidden Tab stop`, async ({ page }) => {
        await checkPage(page, path);
      });
    }

    test.describe('signed out', () => {
      test.use({ storageState: { cookies: [], origins: [] } });
      for (const path of publicPages) {
        test(`${path} has one h1, one banner, the skip link first and no hidden Tab stop`, async ({
          page,
        }) => {
          await checkPage(page, path);
        });
      }
    });

    test('a record page and its promotion dialog pass axe, colour contrast included', async ({ page }) => {
      await page.goto('/admin/users');
      await settled(page);
      await page.locator('table tbody tr').first().getByRole('link').first().click();
      await expect(page).toHaveURL(/\/[0-9a-f-]{36}$/);
      await settled(page);
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.getByRole('banner')).toHaveCount(1);
      expect(await cutBadges(page), 'badges cut short').toEqual([]);
      await pickOption(page, 'Promote to the single role', 'supervisor');
      await page.getByRole('button', { name: 'Promote', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Promote this user?' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Confirm promotion' })).toBeVisible();
      // The dialog adds no banner of its own.
      await expect(page.getByRole('banner')).toHaveCount(1);
      await page.mouse.move(0, 0);
      await page.waitForTimeout(400);
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
    });

    test('the admin menu, once opened, is reachable and closes back to its toggle', async ({ page }) => {
      await page.goto('/admin');
      await settled(page);
      const toggle = page.getByRole('button', { name: 'Menu' });
      await toggle.click();
      const menu = page.getByRole('navigation', { name: 'Admin menu' });
      await expect(menu.getByRole('link', { name: 'Users' })).toBeFocused();
      await expect(menu.getByRole('link', { name: 'Users' })).toBeInViewport();
      await page.mouse.move(0, 0);
      await page.waitForTimeout(400);
      await expectAccessible(page);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('button', { name: 'Menu' })).toBeFocused();
      await expect(page.locator('#admin-menu')).toHaveAttribute('inert', '');
    });
  });
}
