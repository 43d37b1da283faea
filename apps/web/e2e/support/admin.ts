// What the admin specs share: the signed-in admin's browser state (made once per run by admin.setup.ts),
// the identity it signs in as, axe-core on a page, and small steps on the kit's controls.
/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/** The admin identity scripts/e2e-server.mjs makes for these specs. */
export const ADMIN_USERNAME = 'console.kit@careplane.local';

/** Where the signed-in admin's storage state lives for the server of this run. */
export const adminStatePath = (port = process.env.CAREPLANE_E2E_PORT) =>
  path.join(tmpdir(), `careplane-e2e-${port ?? 'none'}-admin-state.json`);

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core on the page as it is; returns the serious and critical violations, readable. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // Evaluated by the browser's debugging protocol, which the page's CSP (rightly) does not let a <script> do.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(', ')})`,
    );
}

export async function expectAccessible(page: Page) {
  expect(await seriousA11yViolations(page), `axe on ${page.url()}`).toEqual([]);
}

/** A name no other test or demo record has. */
export const unique = (prefix: string) =>
  `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** Picks a record in a relation picker by typing part of its name. */
export async function pickRecord(
  page: Page,
  label: string | RegExp,
  search: string,
  option?: string | RegExp,
) {
  const input = page.getByRole('combobox', { name: label, exact: typeof label === 'string' });
  // A picker holding several records draws its chosen ones over the input.
  await input.click({ force: true });
  await input.fill(search);
  await page
    .getByRole('option', { name: option ?? search })
    .first()
    .click();
}

/**
 * Picks one value of a plain select. A click that lands while the select is still moving (a filter panel
 * opening, a notification sliding over it) opens nothing: then it clicks again until the options show.
 */
export async function pickOption(page: Page, label: string | RegExp, option: string | RegExp) {
  const select = page.getByRole('combobox', { name: label, exact: typeof label === 'string' });
  const choice = page.getByRole('option', { name: option, exact: typeof option === 'string' });
  await expect(async () => {
    if (!(await choice.isVisible())) await select.click({ force: true });
    await expect(choice).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 40_000 });
  await choice.click();
}

/** The list's table body rows. */
export const rows = (page: Page): Locator => page.locator('table tbody tr');

/** Opens the filter panel when it is closed. */
export async function openFilters(page: Page) {
  const toggle = page.getByRole('button', { name: /^Filters/ });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

/** The request body of the next PATCH to a path, sent by `act`. */
export async function patchBody(page: Page, pathPart: string | RegExp, act: () => Promise<void>) {
  const [request] = await Promise.all([
    page.waitForRequest(
      (request) => request.method() === 'PATCH' && new URL(request.url()).pathname.match(pathPart) !== null,
    ),
    act(),
  ]);
  return request.postDataJSON() as Record<string, unknown>;
}

/** Deletes the record of the page it is on, through its named confirmation. */
export async function deleteThisRecord(page: Page, noun: string, name: string) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Delete this ${noun}?` });
  await expect(dialog).toContainText(`“${name}”`);
  await dialog.getByRole('button', { name: `Delete ${noun}` }).click();
  await expect(page.getByText(`The ${noun} “${name}” was deleted.`)).toBeVisible();
}

/**
 * The access token of the console session open in `page` (as the console keeps it in localStorage), for
 * calling the API as that user from the test. Fails unless it is a signed JWT.
 */
export async function sessionAccessToken(page: Page): Promise<string> {
  const token = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('careplane.session') ?? '{}') as { accessToken?: string | null })
        .accessToken ?? null,
  );
  expect(token, 'the console session holds an access token').toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  return token!;
}
