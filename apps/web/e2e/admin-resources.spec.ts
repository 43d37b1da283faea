// Each resource of the admin area through its screens, as an administrator works: create it through the
// form, find it in the list and with a filter, change one field (and only that field is sent), see its
// relations on its page, delete it.
import { expect, test, type Page } from './support/test.ts';
import {
  deleteThisRecord,
  expectAccessible,
  openFilters,
  patchBody,
  pickOption,
  pickRecord,
  unique,
} from './support/admin.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Submits a create form and waits for the new record's page; returns its id. */
async function create(page: Page, listPath: string, button = 'Create') {
  await page.getByRole('button', { name: button, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${listPath}/(${UUID})$`));
  return new RegExp(`${listPath}/(${UUID})$`).exec(page.url())![1]!;
}

/** Types into the list's search box (the path it starts with) and expects the record's row. */
async function searchFinds(page: Page, text: string, name: string | RegExp = text) {
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill(text);
  await expect(page.getByRole('link', { name, exact: typeof name === 'string' })).toBeVisible();
  await expect(page.locator('table tbody tr')).toHaveCount(1);
}

test('users: create with the enrollment shown once, list, filter, edit one field, relations, delete', async ({
  page,
}) => {
  const last = unique('Kitson');
  const username = `${last.toLowerCase().replace(' ', '.')}@careplane.local`;
  await page.goto('/admin/users');
  await page.getByRole('link', { name: 'New user' }).click();
  await page.getByRole('textbox', { name: /Username/ }).fill(username);
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Kit');
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill(last);
  await pickOption(page, 'Local roles', 'nurse');
  await page.keyboard.press('Escape');
  await pickRecord(page, 'Command centers', 'Bangkok', /Bangkok Command Center/);
  await page.keyboard.press('Escape');
  const id = await create(page, '/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: `Kit ${last}` })).toBeVisible();
  await expect(page.getByText('Enroll the phone of the new user now')).toBeVisible();
  await expect(page.getByTestId('enrollment-code')).toHaveText(/\S{6,}/);
  await expect(page.getByRole('img', { name: 'QR code of the enrollment link' })).toBeVisible();

  await page.goto('/admin/users');
  await expect(page.getByRole('link', { name: `Kit ${last}` })).toBeVisible();
  await searchFinds(page, last, `Kit ${last}`);
  await openFilters(page);
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await expect(page).toHaveURL(/filters=username/);
  await expect(page.getByRole('link', { name: `Kit ${last}` })).toBeVisible();

  await page.goto(`/admin/users/edit/${id}`);
  await page.getByRole('textbox', { name: 'Phone number', exact: true }).fill('+66 2 555 0101');
  const body = await patchBody(page, `/api/users/${id}`, () =>
    page.getByRole('button', { name: 'Save changes' }).click(),
  );
  expect(body).toEqual({ phoneNumber: '+66 2 555 0101' });
  await expect(page).toHaveURL(new RegExp(`/admin/users/${id}$`));
  const relations = page.getByRole('region', { name: 'Relations' });
  await expect(relations.getByRole('link', { name: 'Bangkok Command Center' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'History' }).getByText('update')).toBeVisible();
  await deleteThisRecord(page, 'user', `Kit ${last}`);
  await expect(page).toHaveURL(/\/admin\/users$/);
});

test('patients: a new patient with a profile, listed, filtered by status, status changed, deleted', async ({
  page,
}) => {
  const last = unique('Patientson');
  await page.goto('/admin/patients');
  await page.getByRole('link', { name: 'New patient' }).click();
  await page
    .getByRole('textbox', { name: /Username/ })
    .fill(`${last.toLowerCase().replace(' ', '.')}@careplane.local`);
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Pat');
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill(last);
  const id = await create(page, '/admin/users');
  await page.getByRole('button', { name: 'Create patient profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a patient profile' });
  await pickOption(page, /Status/, 'enrolled');
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await dialog.getByRole('textbox', { name: /Name/ }).fill('Nok Patientson');
  await dialog.getByRole('textbox', { name: 'Phone number', exact: true }).fill('+66 81 000 0000');
  await dialog.getByRole('button', { name: 'Create profile' }).click();
  const profile = page.getByRole('region', { name: 'Patient profile' });
  await expect(profile.getByText('enrolled')).toBeVisible();
  await expect(profile.getByText('Nok Patientson')).toBeVisible();

  await page.goto('/admin/patients');
  await searchFinds(page, last, `Pat ${last}`);
  await openFilters(page);
  await pickOption(page, 'Patient status', 'enrolled');
  await expect(page).toHaveURL(/filters=patientProfile\.status%7Eenrolled/);
  await expect(page.getByRole('link', { name: `Pat ${last}` })).toBeVisible();

  await page.goto(`/admin/users/${id}`);
  await page.getByRole('button', { name: 'Edit patient profile' }).click();
  await pickOption(page, /Status/, 'discharged');
  const body = await patchBody(page, /\/api\/patient-profiles\//, () =>
    page.getByRole('dialog').getByRole('button', { name: 'Save profile' }).click(),
  );
  expect(body).toEqual({ status: 'discharged' });
  await expect(profile.getByText('discharged')).toBeVisible();
  await deleteThisRecord(page, 'user', `Pat ${last}`);
});

test('devices: create with the token shown once, list, filter, edit one field, relations, delete', async ({
  page,
}) => {
  const title = unique('Kit terminal');
  await page.goto('/admin/devices/edit');
  await page.getByRole('textbox', { name: /Title/ }).fill(title);
  await pickOption(page, 'Role', 'patient terminal');
  await pickRecord(page, 'Assigned user', 'Malee', /Malee Srisawat/);
  await pickRecord(page, 'Command center', 'Bangkok', /Bangkok Command Center/);
  const id = await create(page, '/admin/devices');
  await expect(page.getByText('Copy the device token now: it is shown only once')).toBeVisible();
  await expect(page.getByTestId('device-token')).toHaveText(/^cpd_[A-Za-z0-9_-]{43}$/);

  await page.goto('/admin/devices');
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await openFilters(page);
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await expect(page).toHaveURL(/filters=title/);
  await expect(page.locator('table tbody tr')).toHaveCount(1);
  await expect(page.getByRole('link', { name: title })).toBeVisible();

  await page.goto(`/admin/devices/edit/${id}`);
  await page.getByRole('switch', { name: 'Enabled' }).click();
  const body = await patchBody(page, `/api/devices/${id}`, () =>
    page.getByRole('button', { name: 'Save changes' }).click(),
  );
  expect(body).toEqual({ isEnabled: false });
  const relations = page.getByRole('region', { name: 'Relations' });
  await expect(relations.getByRole('link', { name: 'Malee Srisawat' })).toBeVisible();
  await expect(relations.getByRole('link', { name: 'Bangkok Command Center' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Device' }).getByText('No', { exact: true })).toBeVisible();
  await deleteThisRecord(page, 'device', title);
});

test('device jobs: add, list, filter by status, cancel (the one field sent), device linked, delete', async ({
  page,
}) => {
  const purpose = unique('Kit check');
  await page.goto('/admin/devices/jobs');
  await page.getByRole('link', { name: 'Add job' }).click();
  await pickRecord(page, /Device/, 'Bangkok lobby', /Bangkok lobby screen/);
  await page.getByRole('textbox', { name: 'Purpose', exact: true }).fill(purpose);
  await page.getByRole('textbox', { name: /Commands/ }).fill('ping 127.0.0.1\ncollect-logs');
  const id = await create(page, '/admin/devices/jobs');
  await expect(page.getByRole('heading', { level: 1, name: purpose })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Commands' })).toContainText('ping 127.0.0.1');

  await page.goto('/admin/devices/jobs');
  await expect(page.getByRole('link', { name: purpose })).toBeVisible();
  await searchFinds(page, purpose);
  await openFilters(page);
  await pickOption(page, 'Status', 'NEW');
  await expect(page).toHaveURL(/filters=status%7ENEW/);
  await expect(page.getByRole('link', { name: purpose })).toBeVisible();

  await page.goto(`/admin/devices/jobs/${id}`);
  // Cancelling asks first; the job is cancelled only once confirmed.
  const body = await patchBody(page, `/api/devices/jobs/${id}`, async () => {
    await page.getByRole('button', { name: 'Cancel job' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this job?' });
    await expect(dialog).toContainText(purpose);
    await dialog.getByRole('button', { name: 'Cancel the job' }).click();
  });
  expect(body).toEqual({ status: 'CANCELLED' });
  await expect(page.getByRole('region', { name: 'Job' }).getByText('CANCELLED')).toBeVisible();
  await expect(page.getByText('The job was cancelled before the device ran it.')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Job' }).getByRole('link', { name: 'Bangkok lobby screen' }),
  ).toBeVisible();
  await deleteThisRecord(page, 'device job', purpose);
});

test('workstations: create with a patient, list, filter, edit one field, relations, delete', async ({
  page,
}) => {
  const title = unique('Kit station');
  await page.goto('/admin/workstations/edit');
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await pickRecord(page, 'Patients', 'Malee', /Malee Srisawat/);
  await page.keyboard.press('Escape');
  const id = await create(page, '/admin/workstations');

  await page.goto('/admin/workstations');
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await searchFinds(page, title);
  await openFilters(page);
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await expect(page).toHaveURL(/filters=title/);
  await expect(page.getByRole('link', { name: title })).toBeVisible();

  const renamed = `${title} B`;
  await page.goto(`/admin/workstations/edit/${id}`);
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(renamed);
  const body = await patchBody(page, `/api/devices/workstations/${id}`, () =>
    page.getByRole('button', { name: 'Save changes' }).click(),
  );
  expect(body).toEqual({ title: renamed });
  await expect(
    page.getByRole('region', { name: 'Patients' }).getByRole('link', { name: 'Malee Srisawat' }),
  ).toBeVisible();
  await deleteThisRecord(page, 'workstation', renamed);
});

test('IoT devices: create, list, filter, edit one field, relations, delete', async ({ page }) => {
  const hardware = unique('KIT:HW').replace(' ', '-');
  await page.goto('/admin/iot-devices');
  await page.getByRole('link', { name: 'New IoT device' }).click();
  await page.getByRole('textbox', { name: /Hardware identifier/ }).fill(hardware);
  await page.getByRole('textbox', { name: /Model/ }).fill('CP-KIT pulse');
  await pickOption(page, /Connection type/, 'Bluetooth (BLE)');
  await pickOption(page, 'Supported data types', 'heart rate');
  await page.keyboard.press('Escape');
  await pickRecord(page, 'Assigned user', 'Malee', /Malee Srisawat/);
  const id = await create(page, '/admin/iot-devices');
  await expect(page.getByRole('heading', { level: 1, name: `${hardware} · CP-KIT pulse` })).toBeVisible();

  await page.goto('/admin/iot-devices');
  await expect(page.getByRole('link', { name: hardware })).toBeVisible();
  await searchFinds(page, hardware);
  await openFilters(page);
  await pickOption(page, 'Connection', 'Bluetooth (BLE)');
  await expect(page).toHaveURL(/filters=connectionType%7Eble/);
  await expect(page.getByRole('link', { name: hardware })).toBeVisible();

  await page.goto(`/admin/iot-devices/edit/${id}`);
  await page.getByRole('textbox', { name: /Model/ }).fill('CP-KIT pulse 2');
  const body = await patchBody(page, `/api/iot-devices/${id}`, () =>
    page.getByRole('button', { name: 'Save changes' }).click(),
  );
  expect(body).toEqual({ model: 'CP-KIT pulse 2' });
  await expect(
    page.getByRole('region', { name: 'Relations' }).getByRole('link', { name: 'Malee Srisawat' }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Readings' })).toBeVisible();
  await deleteThisRecord(page, 'IoT device', `${hardware} · CP-KIT pulse 2`);
});

test('prescriptions: create, list, filter, edit one field, parties linked, delete', async ({ page }) => {
  const item = unique('Kitamol');
  await page.goto('/admin/prescriptions');
  await page.getByRole('link', { name: 'New prescription' }).click();
  await pickRecord(page, /Issuer/, 'Arthit', /Arthit Charoenrat/);
  await pickRecord(page, /Recipient/, 'Malee', /Malee Srisawat/);
  await pickRecord(page, /Supplier/, 'Sukhumvit', /Sukhumvit Care Pharmacy/);
  await pickRecord(page, /Shipper/, 'Siam', /Siam Express/);
  await page.getByRole('button', { name: 'Add item' }).click();
  const first = page.getByRole('group', { name: 'Item 1' });
  await first.getByRole('textbox', { name: /Name/ }).fill(item);
  await first.getByRole('textbox', { name: /Quantity/ }).fill('10');
  await first.getByRole('textbox', { name: 'Unit', exact: true }).fill('tablets');
  const id = await create(page, '/admin/prescriptions');
  await expect(page.getByRole('region', { name: 'Content' })).toContainText(item);

  await page.goto('/admin/prescriptions');
  await searchFinds(page, item, new RegExp(item));
  await openFilters(page);
  await pickOption(page, 'Status', 'new');
  await expect(page).toHaveURL(/filters=status%7Enew/);
  await expect(page.locator('table tbody tr')).toHaveCount(1);

  await page.goto(`/admin/prescriptions/edit/${id}`);
  const delivery = page.getByRole('group', { name: 'Delivery address' });
  await delivery.getByRole('textbox', { name: 'City', exact: true }).fill('Nonthaburi');
  const body = await patchBody(page, `/api/prescriptions/${id}`, () =>
    page.getByRole('button', { name: 'Save changes' }).click(),
  );
  // The delivery address (defaulted to the recipient's at creation) is one field: sent whole, city changed.
  expect(Object.keys(body)).toEqual(['deliveryAddress']);
  expect(body.deliveryAddress).toMatchObject({ city: 'Nonthaburi' });
  const parties = page.getByRole('region', { name: 'Parties' });
  for (const name of [
    'Arthit Charoenrat',
    'Malee Srisawat',
    'Sukhumvit Care Pharmacy',
    'Siam Express Medical Courier',
  ]) {
    await expect(parties.getByRole('link', { name })).toBeVisible();
  }
  await deleteThisRecord(
    page,
    'prescription',
    (await page.getByRole('heading', { level: 1 }).textContent()) ?? '',
  );
});

test('service providers: create, list, filter, edit one field, employees linked, delete', async ({
  page,
}) => {
  const title = unique('Kit Courier');
  await page.goto('/admin/service-providers');
  await page.getByRole('link', { name: 'New service provider' }).click();
  await page.getByRole('textbox', { name: /Title/ }).fill(title);
  await pickOption(page, /Type/, 'courier');
  await pickRecord(page, 'Employees', 'Tawan', /Tawan Jaidee/);
  await page.keyboard.press('Escape');
  await page.getByRole('textbox', { name: 'City', exact: true }).fill('Bangkok');
  await create(page, '/admin/service-providers');

  await page.goto('/admin/service-providers');
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await searchFinds(page, title);
  await openFilters(page);
  await pickOption(page, 'Type', 'courier');
  await expect(page).toHaveURL(/filters=type%7Ecourier/);
  await expect(page.getByRole('link', { name: title })).toBeVisible();

  await page.getByRole('link', { name: title }).click();
  await page.getByRole('link', { name: 'Edit' }).click();
  const renamed = `${title} Express`;
  await page.getByRole('textbox', { name: /Title/ }).fill(renamed);
  const body = await patchBody(page, /\/api\/service-providers\//, () =>
    page.getByRole('button', { name: 'Save changes' }).click(),
  );
  expect(body).toEqual({ title: renamed });
  await expect(
    page.getByRole('region', { name: 'Employees' }).getByRole('link', { name: 'Tawan Jaidee' }),
  ).toBeVisible();
  await deleteThisRecord(page, 'service provider', renamed);
});

test('command centers: create with its address, list, filter, edit one field, users linked, delete', async ({
  page,
}) => {
  const title = unique('Kit Command Center');
  await page.goto('/admin/command-centers');
  await page.getByRole('link', { name: 'New command center' }).click();
  await page.getByRole('textbox', { name: /^Title/ }).fill(title);
  await pickRecord(page, 'Assigned users', 'Wichai', /Wichai Panyawong/);
  await page.keyboard.press('Escape');
  const address = page.getByRole('group', { name: 'Address' });
  await address.getByRole('textbox', { name: /Address title/ }).fill('Head office');
  await address.getByRole('textbox', { name: /Street/ }).fill('Rama IV Road');
  await address.getByRole('textbox', { name: /City/ }).fill('Bangkok');
  await address.getByRole('textbox', { name: /Country/ }).fill('Thailand');
  await address.getByRole('textbox', { name: 'Latitude', exact: true }).fill('13.7307');
  await address.getByRole('textbox', { name: 'Longitude', exact: true }).fill('100.5418');
  const id = await create(page, '/admin/command-centers');
  await expect(page.getByRole('region', { name: 'Command center' })).toContainText('13.7307, 100.5418');

  await page.goto('/admin/command-centers');
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await searchFinds(page, title);
  await openFilters(page);
  await pickRecord(page, 'Assigned user', 'Wichai', /Wichai Panyawong/);
  await expect(page).toHaveURL(/filters=assignedUsers\.id/);
  await expect(page.getByRole('link', { name: title })).toBeVisible();

  const renamed = `${title} North`;
  await page.goto(`/admin/command-centers/edit/${id}`);
  await page.getByRole('textbox', { name: /^Title/ }).fill(renamed);
  const body = await patchBody(page, `/api/command-centers/${id}`, () =>
    page.getByRole('button', { name: 'Save changes' }).click(),
  );
  expect(body).toEqual({ title: renamed });
  await expect(
    page.getByRole('region', { name: 'Assigned users' }).getByRole('link', { name: 'Wichai Panyawong' }),
  ).toBeVisible();
  await expectAccessible(page);
  await deleteThisRecord(page, 'command center', renamed);
});
