// The actions of the admin area: promotion after its warning, an alert and a reboot for a user (their jobs in
// Device Jobs; a user without a device is told why not), a workstation's patients, a device's charts and an
// IoT device's readings; a lost phone revoked on its person's page.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from './support/test.ts';
import { deleteThisRecord, patchBody, pickOption, pickRecord, unique } from './support/admin.ts';
import { careplane } from './support/cli-authenticator.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

async function newUser(page: Page, last: string, role?: string) {
  await page.goto(role ? `/admin/users/edit?role=${role}` : '/admin/users/edit');
  await page
    .getByRole('textbox', { name: /Username/ })
    .fill(`${last.toLowerCase().replace(' ', '.')}@careplane.local`);
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Act');
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill(last);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/users/${UUID}$`));
  return page.url().split('/').pop()!;
}

/** A demo patient's page, found through the list. */
async function openUser(page: Page, name: string) {
  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill(name);
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

test('promoting a user replaces its local roles with one, after a warning whose button reads Confirm promotion', async ({
  page,
}) => {
  const last = unique('Promo');
  await newUser(page, last, 'nurse');
  await pickOption(page, 'Promote to the single role', 'supervisor');
  await page.getByRole('button', { name: 'Promote', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Promote this user?' });
  await expect(dialog).toContainText(`“Act ${last}” (nurse) will be replaced by the single role supervisor`);
  const confirm = dialog.getByRole('button', { name: 'Confirm promotion' });
  // Warning-styled: Mantine's orange.
  await expect(confirm).toHaveCSS('background-color', /rgb\(2[0-9]{2}, [0-9]{2,3}, [0-9]{1,2}\)/);
  const body = await patchBody(page, /\/api\/users\//, () => confirm.click());
  expect(body).toEqual({ localRoles: ['supervisor'] });
  const roles = page.getByRole('region', { name: 'Roles' });
  await expect(roles.getByText('supervisor', { exact: true })).toBeVisible();
  await expect(roles.getByText('nurse', { exact: true })).toHaveCount(0);
  await deleteThisRecord(page, 'user', `Act ${last}`);
});

test('promoting a device asks the same way', async ({ page }) => {
  const title = unique('Promo device');
  await page.goto('/admin/devices/edit');
  await page.getByRole('textbox', { name: /Title/ }).fill(title);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/devices/${UUID}$`));
  await pickOption(page, 'Promote to the single role', 'monitoring workstation');
  await page.getByRole('button', { name: 'Promote', exact: true }).click();
  const body = await patchBody(page, /\/api\/devices\//, () =>
    page
      .getByRole('dialog', { name: 'Promote this device?' })
      .getByRole('button', { name: 'Confirm promotion' })
      .click(),
  );
  expect(body).toEqual({ localRoles: ['monitoring_workstation'] });
  await deleteThisRecord(page, 'device', title);
});

test("an alert and a reboot for a user create jobs on the user's devices, listed in Device Jobs", async ({
  page,
}) => {
  await openUser(page, 'Malee Srisawat');
  const care = page.getByRole('region', { name: 'Care actions' });
  await care.getByRole('button', { name: 'Send alert' }).click();
  const ask = page.getByRole('dialog', { name: 'Send an alert to Malee Srisawat' });
  await ask.getByRole('textbox', { name: /Message/ }).fill('Please call the nurse about your tablets');
  await ask.getByRole('button', { name: 'Send alert' }).click();
  const sent = care.getByRole('alert').filter({ hasText: 'Alert sent' });
  await expect(sent).toBeVisible();
  await expect(sent.getByRole('link', { name: /^notify/ }).first()).toBeVisible();
  await care.getByRole('button', { name: 'Reboot devices' }).click();
  // The reboot asks first, naming the devices it restarts.
  const confirm = page.getByRole('dialog', { name: 'Reboot devices' });
  await expect(confirm).toContainText('Restart 1 device: Home terminal of Malee Srisawat?');
  await confirm.getByRole('button', { name: /^Restart devices?$/ }).click();
  const rebooted = care.getByRole('alert').filter({ hasText: 'Reboot requested' });
  await expect(rebooted.getByRole('link', { name: /^reboot/ }).first()).toBeVisible();
  await rebooted
    .getByRole('link', { name: /^reboot/ })
    .first()
    .click();
  await expect(page.getByRole('region', { name: 'Commands' })).toContainText('reboot');

  await page.goto('/admin/devices/jobs');
  await page.getByRole('combobox', { name: 'Search in' }).click();
  await page.getByRole('option', { name: 'Commands' }).click();
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill('reboot');
  await expect(page.locator('table tbody tr').first()).toContainText('reboot');
});

test('a user without a device has no reboot to ask for, and says why', async ({ page }) => {
  const last = unique('Nodevice');
  await newUser(page, last);
  const care = page.getByRole('region', { name: 'Care actions' });
  await expect(care.getByRole('button', { name: 'Reboot devices' })).toBeDisabled();
  await expect(care).toContainText('No device is assigned, so there is nothing to reboot.');
  await deleteThisRecord(page, 'user', `Act ${last}`);
});

test("a workstation's patients are assigned and removed one by one", async ({ page }) => {
  const title = unique('Ward');
  await page.goto('/admin/workstations/edit');
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/workstations/${UUID}$`));
  const patients = page.getByRole('region', { name: 'Patients' });
  await expect(patients.getByText('No patient is assigned.')).toBeVisible();
  await pickRecord(page, 'Assign a patient', 'Malee', /Malee Srisawat/);
  const [added] = await Promise.all([
    page.waitForRequest((request) => request.url().endsWith('/assigned-patient/add')),
    patients.getByRole('button', { name: 'Assign' }).click(),
  ]);
  expect(Object.keys(added.postDataJSON() as object)).toEqual(['id']);
  await expect(patients.getByRole('link', { name: 'Malee Srisawat' })).toBeVisible();
  await patients.getByRole('button', { name: 'Remove Malee Srisawat' }).click();
  await expect(patients.getByText('No patient is assigned.')).toBeVisible();
  await deleteThisRecord(page, 'workstation', title);
});

test("a device's charts follow the chosen period and its five newest stats are listed", async ({ page }) => {
  await page.goto('/admin/devices');
  await page.getByRole('link', { name: 'Bangkok lobby screen' }).click();
  const charts = page.getByRole('region', { name: 'Charts' });
  await expect(charts.getByRole('figure', { name: 'CPU (%)' }).locator('svg').first()).toBeVisible();
  const [request] = await Promise.all([
    page.waitForRequest(
      (request) => request.url().includes('/api/devices/stats') && request.url().includes('from='),
    ),
    charts.getByText('7 days').click(),
  ]);
  const query = new URL(request.url()).searchParams;
  expect(Number(query.get('to')) - Number(query.get('from'))).toBe(7 * 24 * 3600 * 1000);
  expect(query.getAll('filters')[0]).toMatch(/^device\.id~/);
  expect(query.get('limit')).toBe('200');
  await expect(page.getByRole('table', { name: 'Recent stats' }).locator('tbody tr')).toHaveCount(5);
});

test('an IoT device shows its last submission and a readings chart per data type', async ({ page }) => {
  await openUser(page, 'Malee Srisawat');
  await page
    .getByRole('region', { name: 'Relations' })
    .getByRole('link', { name: /wrist band/ })
    .first()
    .click();
  await expect(page.getByRole('region', { name: 'Last data submission' }).getByText('Taken')).toBeVisible();
  const readings = page.getByRole('region', { name: 'Readings' });
  await expect(readings.getByRole('figure').locator('svg').first()).toBeVisible();
  const [request] = await Promise.all([
    page.waitForRequest((request) => request.url().includes('/api/iot-devices/data?')),
    readings.getByText('7 days').click(),
  ]);
  const filters = new URL(request.url()).searchParams.getAll('filters');
  expect(filters[0]).toMatch(/^iotDevice\.id~/);
  expect(filters[1]).toMatch(/^dataType~/);
});

test("a phone enrolled with the new user's code is listed on their page by itself, and revoked there when lost", async ({
  page,
}) => {
  const last = unique('Phone');
  await newUser(page, last);
  const link = (await page.getByTestId('enrollment-link').textContent()) ?? '';
  const store = path.join(mkdtempSync(path.join(tmpdir(), 'careplane-e2e-phone-')), 'authenticator.json');
  const enrolled = await careplane([
    'authenticator',
    'enroll',
    '--store',
    store,
    '--label',
    'Work phone',
    link,
  ]);
  expect(enrolled.code, enrolled.out + enrolled.err).toBe(0);
  // The page hears of the enrollment by itself: the used code goes, and the phone is listed.
  await expect(
    page.getByText('Work phone is enrolled: the one-time code is used up and no longer shown.'),
  ).toBeVisible();
  await expect(page.getByTestId('enrollment-code')).toHaveCount(0);

  const phones = page.getByRole('list', { name: 'Phones' });
  await expect(phones.getByText('Work phone')).toBeVisible();
  await expect(phones.getByText('Active', { exact: true })).toBeVisible();
  await phones.getByRole('button', { name: 'Revoke Work phone' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke Work phone?' });
  await expect(dialog).toContainText(`Every sign-in of Act ${last} ends now`);
  await dialog.getByRole('button', { name: 'Revoke phone' }).click();
  await expect(page.getByText('Work phone was revoked.')).toBeVisible();
  await expect(phones.getByText(/^Revoked /)).toBeVisible();
  await expect(phones.getByRole('button', { name: /^Revoke/ })).toHaveCount(0);
  // The revoked phone is refused when it asks for its person's requests.
  const asked = await careplane(['authenticator', 'approve', '--store', store, '--code', 'AB 12']);
  expect(asked.code).not.toBe(0);
  expect(asked.err).toContain('Unknown or revoked authenticator key');
  await deleteThisRecord(page, 'user', `Act ${last}`);
});
