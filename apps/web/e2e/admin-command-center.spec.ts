// The supervisor's command-center view: an admin assigns a supervisor to a center with a device; the
// supervisor sees that center's users and devices only, a job on its device appear and change status without
// reload, and an alert for its patient, which they acknowledge and close there (decision 079); reloaded
// offline, the view loads again by itself once the network is back, and an alert acknowledged there is kept
// through another reload and sent once. From the view's users, the supervisor opens
// the patient's page: their open alert and the vital signs their pulse oximeter sent (decision 102).
import { expect, test, type Page } from './support/test.ts';
import { expectAccessible, sessionAccessToken, unique } from './support/admin.ts';
import { issuedIdentity, signInWithCliAuthenticator } from './support/cli-authenticator.ts';
import { goOffline, goOnline } from './support/network.ts';

test.describe.configure({ timeout: 150_000 });

const SUPERVISOR = 'console.supervisor@careplane.local';
const NURSE = 'console.center.nurse@careplane.local';

/** The API as the admin of this page's signed-in session. */
async function adminApi(page: Page) {
  await page.goto('/admin');
  const token = await sessionAccessToken(page);
  const headers = { authorization: `Bearer ${token}` };
  const call = async (method: 'get' | 'post' | 'patch', url: string, data?: object, status = 200) => {
    const response = await page.request[method](url, { headers, ...(data ? { data } : {}) });
    expect(response.status(), await response.text()).toBe(status);
    return (await response.json()) as Record<string, unknown> & { id: string };
  };
  return {
    get: (url: string) => call('get', url),
    post: (url: string, data: object) => call('post', url, data, 201),
    /** An action on a record (acknowledge, close): 200 with the record. */
    act: (url: string, data?: object) => call('post', url, data),
    patch: (url: string, data: object) => call('patch', url, data),
  };
}

type AdminApi = Awaited<ReturnType<typeof adminApi>>;

/** A center whose care team is `member` (a supervisor or a nurse), with a patient and the patient's tablet. */
async function centerWithPatient(admin: AdminApi, member = SUPERVISOR, role = 'supervisor') {
  const found = await admin.get(`/api/users?filtersLike=username~${encodeURIComponent(member)}`);
  const memberId = (found.items as { id: string }[])[0]!.id;
  // Of the care team, assigned to the center below.
  await admin.patch(`/api/users/${memberId}`, { localRoles: [role] });
  const centerTitle = unique('Live center');
  const center = await admin.post('/api/command-centers', {
    title: centerTitle,
    address: { title: centerTitle, street: 'Rama IV Road', city: 'Bangkok', country: 'TH' },
    assignedUsers: [memberId],
  });
  const patientName = unique('Patient');
  const patient = await admin.post('/api/users', {
    username: `${patientName.toLowerCase().replace(/\W+/g, '.')}@careplane.local`,
    firstName: 'Live',
    lastName: patientName,
    roles: ['public'],
    localRoles: ['patient'],
  });
  const deviceTitle = unique('Center tablet');
  const device = await admin.post('/api/devices', {
    title: deviceTitle,
    commandCenter: center.id,
    assignedUser: patient.id,
  });
  return { memberId, patient, patientName, device, deviceTitle };
}

test("a supervisor watches their center's devices, jobs and alerts live, and acts on the alerts", async ({
  page,
  browser,
}) => {
  // The supervisor signs in once, which makes their user record.
  // Its service worker is allowed: the view is reloaded without a network at the end.
  const supervisorContext = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    serviceWorkers: 'allow',
  });
  const supervisor = await supervisorContext.newPage();
  await signInWithCliAuthenticator(supervisor, issuedIdentity(SUPERVISOR), /\/account$/);

  const admin = await adminApi(page);
  const {
    memberId: supervisorId,
    patient,
    patientName,
    device,
    deviceTitle,
  } = await centerWithPatient(admin);

  const streamOpen = supervisor.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/events' && response.status() === 200,
  );
  await supervisor.goto('/command-center');
  await expect(supervisor.getByRole('heading', { level: 1, name: 'Command center' })).toBeVisible();
  const devices = supervisor.getByRole('region', { name: 'Devices' });
  await expect(devices).toContainText(deviceTitle);
  // Their center's device only, none of the demo centers' (a retry's supervisor also keeps the center of the
  // failed try, whose device has the same prefix), under the table's column names.
  await expect(devices.getByRole('columnheader')).toHaveText(['Device', 'Role', 'Assigned to']);
  const deviceRows = devices.locator('tbody').getByRole('row');
  await expect(deviceRows).toHaveCount(test.info().retry + 1);
  for (const row of await deviceRows.all()) await expect(row).toContainText('Center tablet');
  await expect(supervisor.getByRole('region', { name: 'Users' })).toContainText(`Live ${patientName}`);
  await streamOpen;

  const purpose = unique('Center reboot');
  const job = await admin.post('/api/devices/jobs', { purpose, commands: ['reboot'], device: device.id });
  const row = supervisor.getByRole('region', { name: 'Jobs' }).getByRole('row').filter({ hasText: purpose });
  await expect(row).toContainText('NEW');
  await admin.patch(`/api/devices/jobs/${job.id}`, { status: 'CANCELLED' });
  await expect(row).toContainText('CANCELLED');

  // An alert for the center's patient appears without reload; the supervisor acknowledges and closes it there.
  const message = unique('Fall in the kitchen');
  const sent = await admin.post(`/api/command-centers/users/${patient.id}/alert`, { message });
  const alertId = (sent.alert as { id: string }).id;
  const alerts = supervisor.getByRole('region', { name: 'Open alerts' });
  const entry = alerts.getByRole('listitem', { name: message });
  await expect(entry).toContainText(`Live ${patientName}`);
  await entry.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(entry).toContainText('Acknowledged by you on');
  await entry.getByRole('button', { name: 'Close…' }).click();
  const note = entry.getByRole('textbox', { name: 'What was done' });
  await expect(note).toBeFocused();
  await expect(note).toBeInViewport();
  await note.fill('Called her; she is fine.');
  await entry.getByRole('button', { name: 'Close alert' }).click();
  await expect(entry).toHaveCount(0);
  const closed = await admin.get(`/api/alerts/${alertId}`);
  expect(closed).toMatchObject({
    isActive: false,
    acknowledgedByUserId: supervisorId,
    closedByUserId: supervisorId,
    closingData: { note: 'Called her; she is fine.' },
  });
  expect(await supervisor.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);

  // Reloaded without a network (on the road), the view shows what it last loaded, kept by the service worker
  // (decision 106), and says it is offline; once the network is back, its sections load again by themselves,
  // with the alert raised meanwhile, and no tap on "Try again".
  await expect
    .poll(() => supervisor.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 40_000 })
    .toBe(true);
  // Kept under a key naming whom it was read for, so another person on this phone is never handed it.
  const claims = (await sessionAccessToken(supervisor)).split('.')[1]!;
  const subject = (JSON.parse(Buffer.from(claims, 'base64url').toString()) as { sub: string }).sub;
  await expect
    .poll(
      () =>
        supervisor.evaluate(async () =>
          (await (await caches.open('careplane-care-team')).keys())
            .map((request) => new URL(request.url))
            .filter((url) => url.pathname.startsWith('/api/command-centers/users'))
            .map((url) => url.searchParams.get('kept-for')),
        ),
      { timeout: 40_000 },
    )
    .toContain(subject);
  // An alert the supervisor will acknowledge on the road, in the list the worker keeps.
  const onTheRoad = unique('Pressed the call button');
  const roadAlert = await admin.post(`/api/command-centers/users/${patient.id}/alert`, {
    message: onTheRoad,
  });
  const roadAlertId = (roadAlert.alert as { id: string }).id;
  await expect(alerts.getByRole('listitem', { name: onTheRoad })).toBeVisible();
  await expect
    .poll(
      () =>
        supervisor.evaluate(async (title) => {
          const cache = await caches.open('careplane-care-team');
          for (const request of await cache.keys()) {
            if (!new URL(request.url).pathname.startsWith('/api/command-centers/alerts')) continue;
            if ((await (await cache.match(request))?.text())?.includes(title)) return true;
          }
          return false;
        }, onTheRoad),
      { timeout: 40_000 },
    )
    .toBe(true);
  await goOffline(supervisor.context());
  await supervisor.reload();
  await expect(supervisor.getByTestId('offline-notice')).toBeVisible();
  await expect(supervisor.getByRole('region', { name: 'Users' })).toContainText(`Live ${patientName}`);
  await expect(devices).toContainText(deviceTitle);
  await expect(alerts.getByRole('button', { name: 'Try again' })).toHaveCount(0);

  // Acknowledged without a network, the action is kept on the phone (decision 107): it says so, and it is
  // still there after another reload, which used to lose it.
  const roadEntry = alerts.getByRole('listitem', { name: onTheRoad });
  await roadEntry.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(roadEntry).toContainText('Acknowledge — queued, will send when online');
  const tappedAt = Date.now();
  await supervisor.reload();
  await expect(supervisor.getByTestId('offline-notice')).toBeVisible();
  await expect(roadEntry).toContainText('Acknowledge — queued, will send when online');
  await expect(roadEntry.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
  expect(await admin.get(`/api/alerts/${roadAlertId}`)).toMatchObject({ acknowledgedAt: null });

  const meanwhile = unique('Wandering at night');
  await admin.post(`/api/command-centers/users/${patient.id}/alert`, { message: meanwhile });
  await goOnline(supervisor.context());
  await expect(alerts.getByRole('listitem', { name: meanwhile })).toBeVisible({ timeout: 30_000 });
  await expect(alerts.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  // Back online, the kept acknowledgement goes once, dated when it was tapped, not when it arrived.
  await expect(roadEntry).toContainText('Acknowledged by you on', { timeout: 30_000 });
  await expect(roadEntry).not.toContainText('queued');
  const acknowledged = await admin.get(`/api/alerts/${roadAlertId}`);
  expect(acknowledged).toMatchObject({ isActive: true, acknowledgedByUserId: supervisorId });
  const taken = Date.parse(acknowledged.acknowledgedAt as string);
  expect(taken).toBeLessThanOrEqual(tappedAt + 5_000);
  const history = await admin.get(
    `/api/users/logs?filters=recordId~${roadAlertId}&filters=action~acknowledge&limit=10`,
  );
  expect(history.items as unknown[]).toHaveLength(1);
  await supervisorContext.close();
});

test("a nurse opens a patient's page: their open alert and their pulse oximeter's readings", async ({
  page,
  browser,
}) => {
  const nurseContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const nurse = await nurseContext.newPage();
  await signInWithCliAuthenticator(nurse, issuedIdentity(NURSE), /\/account$/);
  const admin = await adminApi(page);
  const { patient, patientName } = await centerWithPatient(admin, NURSE, 'nurse');
  const oximeter = await admin.post('/api/iot-devices', {
    hardwareIdentifier: unique('OXI'),
    model: 'Oximeter X',
    connectionType: 'ble',
    supportedDataTypes: ['heart_rate'],
    assignedUser: patient.id,
  });
  const now = Date.now();
  await admin.post('/api/iot-devices/data/submit', {
    iotDeviceId: oximeter.id,
    dataType: 'heart_rate',
    data: [
      { timestamp: now - 20 * 60_000, rate: 74 },
      { timestamp: now - 10 * 60_000, rate: 81 },
    ],
  });
  const message = unique('Short of breath');
  const sent = await admin.post(`/api/command-centers/users/${patient.id}/alert`, { message });
  // A colleague (here the admin) acknowledged it: the nurse reads who, by name (decision 104).
  const alertId = (sent.alert as { id: string }).id;
  await admin.act(`/api/command-centers/alerts/${alertId}/acknowledge`);
  const me = await admin.get('/api/users/me');
  const adminName = `${String(me.firstName)} ${String(me.lastName)}`;

  // From the alert in the view, the patient's name leads to their page.
  await nurse.goto('/command-center');
  await nurse
    .getByRole('region', { name: 'Open alerts' })
    .getByRole('listitem', { name: message })
    .getByRole('link', { name: `Live ${patientName}` })
    .click();
  await expect(nurse).toHaveURL(new RegExp(`/command-center/${patient.id}$`));
  await expect(nurse.getByRole('heading', { level: 1, name: `Live ${patientName}` })).toBeVisible();
  const entry = nurse.getByRole('region', { name: 'Open alerts' }).getByRole('listitem', { name: message });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText(`Acknowledged by ${adminName} on`);
  const vitals = nurse.getByRole('region', { name: 'Vital signs' });
  await expect(vitals).toContainText('Oximeter X');
  await expect(vitals.getByRole('status')).toContainText('Latest reading: Heart rate 81 /min, taken');
  await expect(vitals.getByText('Heart rate (/min)')).toBeVisible();
  await expect(vitals.getByText(/^2 heart rate readings from /)).toBeAttached();
  await expectAccessible(nurse);

  // On a phone, a fever's alert: its device's name opens that device's chart, brought into view below the
  // alerts (decision 106).
  const thermometer = await admin.post('/api/iot-devices', {
    hardwareIdentifier: unique('THERMO'),
    model: 'Thermo T',
    connectionType: 'ble',
    supportedDataTypes: ['temperature'],
    assignedUser: patient.id,
  });
  await admin.post('/api/iot-devices/data/submit', {
    iotDeviceId: thermometer.id,
    dataType: 'temperature',
    data: [
      { timestamp: now - 15 * 60_000, value: 36.8, unit: 'C' },
      { timestamp: now - 5 * 60_000, value: 40.1, unit: 'C' },
    ],
  });
  await nurse.setViewportSize({ width: 390, height: 844 });
  await nurse.reload();
  const fever = nurse
    .getByRole('region', { name: 'Open alerts' })
    .getByRole('listitem', { name: /^Temperature 40\.1/ });
  await fever.getByRole('link', { name: 'Thermo T' }).click();
  await expect(nurse).toHaveURL(new RegExp(`/command-center/${patient.id}\\?device=${thermometer.id}$`));
  await expect(vitals.getByText('Temperature (°C)')).toBeInViewport();
  await expect(vitals.getByRole('status')).toContainText('Latest reading: Temperature 40.1 °C');
  // Back up at the alert, the same link takes the nurse down to the chart again.
  await nurse.evaluate(() => window.scrollTo(0, 0));
  await expect(vitals.getByText('Temperature (°C)')).not.toBeInViewport();
  await fever.getByRole('link', { name: 'Thermo T' }).click();
  await expect(vitals.getByText('Temperature (°C)')).toBeInViewport();

  // Another person's page, not of this center: not found, with nothing of theirs shown.
  const stranger = await admin.post('/api/users', {
    username: `${unique('stranger').toLowerCase().replace(/\W+/g, '.')}@careplane.local`,
    firstName: 'Not',
    lastName: 'Ours',
    roles: ['public'],
    localRoles: ['patient'],
  });
  await nurse.goto(`/command-center/${stranger.id}`);
  await expect(nurse.getByText('Not in your command centers')).toBeVisible();
  await expect(nurse.getByRole('region', { name: 'Vital signs' })).toHaveCount(0);
  await nurseContext.close();
});
