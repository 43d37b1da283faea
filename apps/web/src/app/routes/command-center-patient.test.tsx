// /command-center/{userId}: one person of the care team's centers (decision 102). A nurse reaches it from the
// view's list of users and reads the person's open alerts and the vital signs their IoT devices send, through
// the command center's calls only; a person of another center reads as not found and nothing more is asked.
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertSchema } from '@careplane/shared/alerts/alerts.contract';
import { deviceJobSchema, deviceSchema } from '@careplane/shared/devices/devices.contract';
import { iotDeviceSchema, type IotDevice } from '@careplane/shared/iot/iot.contract';
import { userSchema } from '@careplane/shared/users/users.contract';
import { fakeAlert, fakeList, fakeUser } from '@/test/admin-fakes.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';
import { browserNetwork } from '@/test/online.ts';

const at = '2030-01-01T08:00:00.000Z';
const taken = Date.parse('2030-01-01T07:30:00.000Z');
const ids = {
  patient: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb1',
  tablet: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb2',
  pulse: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb3',
  cuff: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb4',
  alert: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb5',
};
const patient = fakeUser({
  id: ids.patient,
  firstName: 'Malee',
  lastName: 'Srisawat',
  localRoles: ['patient'],
  assignedDevices: [{ id: ids.tablet, title: 'Bedside tablet' }],
});
const iotDevice = (id: string, model: string, dataType: string, patch: Partial<IotDevice> = {}): IotDevice =>
  iotDeviceSchema.parse({
    id,
    createdAt: at,
    updatedAt: at,
    hardwareIdentifier: `HW-${model.split(' ')[0]}`,
    deviceIdentifier: null,
    model,
    trustLevel: 'trusted',
    connectionType: 'ble',
    connectionMeta: null,
    supportedDataTypes: [dataType],
    allowMultipleDeviceRelationships: false,
    assignedUserId: null,
    createdByDeviceId: null,
    ...patch,
  });
const pulse = iotDevice(ids.pulse, 'Pulse 2', 'heart_rate', { assignedUserId: ids.patient });
const cuff = iotDevice(ids.cuff, 'Cuff 7', 'blood_pressure');
const reading = (iotDeviceId: string, dataType: string, data: Record<string, unknown>) => ({
  id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fc0',
  createdAt: at,
  timestamp: taken,
  dataType,
  data: { timestamp: taken, ...data },
  iotDeviceId,
  createdByUserId: null,
});
const alert = fakeAlert({
  id: ids.alert,
  data: { kind: 'heart_rate', message: 'Heart rate 150 above 130' },
  userId: ids.patient,
  user: { id: ids.patient, firstName: 'Malee', lastName: 'Srisawat' },
});
const empty = { items: [], total: 0, limit: 200, offset: 0 };

let network: FakeNetwork;
beforeEach(() => {
  resetSession();
  const nurse = makeUser({ roles: ['public'], localRoles: ['nurse'] });
  signIn(nurse);
  network = fakeNetwork()
    .on('GET', '/api/users/me', () => json(nurse))
    .on('GET', '/api/command-centers/users', () => json(fakeList(userSchema, [patient])))
    .on('GET', `/api/command-centers/users/${ids.patient}`, () => json(patient))
    .on('GET', '/api/command-centers/devices', () => json(fakeList(deviceSchema, [])))
    .on('GET', '/api/command-centers/jobs', () => json(fakeList(deviceJobSchema, [])))
    .on('GET', '/api/command-centers/alerts', () => json(fakeList(alertSchema, [alert])))
    .on('GET', '/api/command-centers/iot-devices', (call) =>
      json(
        fakeList(
          iotDeviceSchema,
          call.url.searchParams.get('filters')!.startsWith('assignedUser.id~') ? [pulse] : [cuff],
        ),
      ),
    )
    .on('GET', '/api/command-centers/readings', (call) => {
      const filters = call.url.searchParams.getAll('filters');
      if (filters.includes(`iotDevice.id~${ids.pulse}`))
        return json({ ...empty, total: 1, items: [reading(ids.pulse, 'heart_rate', { rate: 72 })] });
      return json({
        ...empty,
        total: 1,
        items: [reading(ids.cuff, 'blood_pressure', { sys: 128, dias: 82 })],
      });
    })
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a person's page in the command center", () => {
  it("is reached from the view's users, and shows the person's open alerts and vital signs", async () => {
    renderApp('/command-center', { env: 'test' });
    const users = await screen.findByRole('region', { name: 'Users' });
    await userEvent.click(await within(users).findByRole('link', { name: 'Malee Srisawat' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Malee Srisawat' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the command center' })).toBeVisible();
    const alerts = screen.getByRole('region', { name: 'Open alerts' });
    expect(await within(alerts).findByText(/Heart rate 150 above 130/)).toBeVisible();
    // Only this person's open alerts are asked for.
    const asked = network.callsTo('GET', '/api/command-centers/alerts').at(-1)!.url.searchParams;
    expect(asked.getAll('filters')).toEqual(['isActive~true', `user.id~${ids.patient}`]);

    const vitals = screen.getByRole('region', { name: 'Vital signs' });
    expect(await within(vitals).findByText('Heart rate (/min)')).toBeVisible();
    expect(within(vitals).getByText(/^1 heart rate reading from /)).toBeInTheDocument();
    // The devices assigned to the person and those linked to their tablet, through the care team's calls.
    const deviceCalls = network.callsTo('GET', '/api/command-centers/iot-devices');
    expect(deviceCalls.map((call) => call.url.searchParams.get('filters')).sort()).toEqual([
      `assignedUser.id~${ids.patient}`,
      `devices.id~${ids.tablet}`,
    ]);
    // The newest reading in words first, whatever its type; then the chart of one type.
    expect(await within(vitals).findByText(/^Latest reading: Heart rate 72 \/min, taken /)).toBeVisible();
    const readings = network
      .callsTo('GET', '/api/command-centers/readings')
      .map((call) => call.url.searchParams.getAll('filters'));
    // The latest reading and the chart both of its vital sign.
    expect(readings).toEqual([
      [`iotDevice.id~${ids.pulse}`, 'dataType~heart_rate'],
      [`iotDevice.id~${ids.pulse}`, 'dataType~heart_rate'],
    ]);
    // Nothing is read through the admin's calls.
    expect(network.calls.filter((call) => call.url.pathname.startsWith('/api/iot-devices'))).toEqual([]);
  });

  it("leads from an alert in the view to its patient's page, and from its device to that device's chart", async () => {
    const fromCuff = {
      ...alert,
      iotDeviceId: ids.cuff,
      iotDevice: { id: ids.cuff, model: 'Cuff 7', hardwareIdentifier: 'HW-Cuff' },
    };
    network.on('GET', '/api/command-centers/alerts', () => json(fakeList(alertSchema, [fromCuff])));
    const { router } = renderApp('/command-center', { env: 'test' });
    const alerts = await screen.findByRole('region', { name: 'Open alerts' });
    await userEvent.click(await within(alerts).findByRole('link', { name: 'Malee Srisawat' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Malee Srisawat' })).toBeVisible();
    expect(router.state.location.pathname).toBe(`/command-center/${ids.patient}`);

    // On the person's own page their name is no link to where the reader already is; the device's name
    // opens its chart.
    const own = screen.getByRole('region', { name: 'Open alerts' });
    const entry = await within(own).findByRole('listitem', { name: /Heart rate 150 above 130/ });
    expect(within(entry).queryByRole('link', { name: 'Malee Srisawat' })).toBeNull();
    await userEvent.click(within(entry).getByRole('link', { name: 'Cuff 7' }));
    expect(new URLSearchParams(router.state.location.search).get('device')).toBe(ids.cuff);
    // The last device's chart type goes with it.
    expect(new URLSearchParams(router.state.location.search).get('type')).toBeNull();
    const vitals = screen.getByRole('region', { name: 'Vital signs' });
    expect(await within(vitals).findByText('Blood pressure (mmHg)')).toBeVisible();
  });

  it('names the colleague who acknowledged an alert', async () => {
    const colleague = {
      id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fd1',
      title: null,
      firstName: 'Nora',
      lastName: 'Nurse',
    };
    const handled = {
      ...alert,
      data: { kind: 'manual', message: 'Short of breath' },
      acknowledgedAt: at,
      acknowledgedByUserId: colleague.id,
      acknowledgedByUser: colleague,
    };
    network.on('GET', '/api/command-centers/alerts', () => json(fakeList(alertSchema, [handled])));
    renderApp('/command-center', { env: 'test' });
    const alerts = await screen.findByRole('region', { name: 'Open alerts' });
    const entry = await within(alerts).findByRole('listitem', { name: /Short of breath/ });
    expect(within(entry).getByText(/^Acknowledged by Nora Nurse on /)).toBeVisible();
  });

  it("opens on a device that measures vital signs, on its vital sign, and reads its latest one, not the battery's", async () => {
    const sos = iotDevice('0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb6', 'SOS 1', 'alert', {
      assignedUserId: ids.patient,
    });
    const band = iotDevice(ids.pulse, 'Band 3', 'battery', {
      assignedUserId: ids.patient,
      supportedDataTypes: ['battery', 'heart_rate'],
    });
    network
      .on('GET', `/api/command-centers/users/${ids.patient}`, () => json({ ...patient, assignedDevices: [] }))
      .on('GET', '/api/command-centers/iot-devices', () => json(fakeList(iotDeviceSchema, [sos, band])));
    renderApp(`/command-center/${ids.patient}`, { env: 'test' });
    const vitals = await screen.findByRole('region', { name: 'Vital signs' });
    expect(await within(vitals).findByRole('combobox', { name: 'IoT device' })).toHaveValue(
      'Band 3 (HW-Band)',
    );
    expect(await within(vitals).findByText('Heart rate (/min)')).toBeVisible();
    expect(await within(vitals).findByText(/^Latest reading: Heart rate 72 \/min, taken /)).toBeVisible();
    const asked = network
      .callsTo('GET', '/api/command-centers/readings')
      .map((call) => call.url.searchParams.getAll('filters'));
    expect(asked).toContainEqual([`iotDevice.id~${ids.pulse}`, 'dataType~heart_rate']);
    expect(asked.flat()).not.toContain('dataType~battery');
  });

  it('says the chart is loading, and offline that it waits for the network: never that there are no readings', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const chartRead = (call: { url: URL }) => call.url.searchParams.has('from');
    network.on('GET', '/api/command-centers/readings', async (call) => {
      if (chartRead(call)) await held;
      return json({ ...empty, total: 1, items: [reading(ids.pulse, 'heart_rate', { rate: 72 })] });
    });
    renderApp(`/command-center/${ids.patient}`, { env: 'test' });
    const vitals = await screen.findByRole('region', { name: 'Vital signs' });
    const chart = await within(vitals).findByRole('figure', { name: 'Heart rate (/min)' });
    expect(within(chart).getByRole('status')).toHaveTextContent('Loading…');
    expect(within(vitals).queryByText('No data in this range.')).toBeNull();
    expect(within(vitals).queryByText(/^0 heart rate readings/)).toBeNull();
    release();
    expect(await within(vitals).findByText(/^1 heart rate reading from /)).toBeInTheDocument();
    expect(within(chart).queryByRole('status')).toBeNull();

    // Offline, a period never read before: the read waits for the network.
    const setOnline = browserNetwork();
    setOnline(false);
    network.on('GET', '/api/command-centers/readings', (call) => {
      if (chartRead(call)) throw new TypeError('Failed to fetch');
      return json({ ...empty, total: 1, items: [reading(ids.pulse, 'heart_rate', { rate: 72 })] });
    });
    await userEvent.click(within(vitals).getByRole('radio', { name: '7 days' }));
    // Its first try fails; then it waits, and says so.
    expect(
      await within(chart).findByText(
        'You are offline. This needs the network: it loads again once you are back online.',
      ),
    ).toHaveAttribute('role', 'status');
    expect(within(vitals).queryByText('No data in this range.')).toBeNull();
    vi.restoreAllMocks();
  });

  it('draws one device at a time, the one chosen kept in the address', async () => {
    const { router } = renderApp(`/command-center/${ids.patient}?type=heart_rate`, { env: 'test' });
    const vitals = await screen.findByRole('region', { name: 'Vital signs' });
    expect(await within(vitals).findByText('Heart rate (/min)')).toBeVisible();
    await userEvent.click(within(vitals).getByRole('combobox', { name: 'IoT device' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Cuff 7 (HW-Cuff)' }));
    expect(await within(vitals).findByText('Blood pressure (mmHg)')).toBeVisible();
    expect(new URLSearchParams(router.state.location.search).get('device')).toBe(ids.cuff);
    // The last device's chart type goes with it.
    expect(new URLSearchParams(router.state.location.search).get('type')).toBeNull();
    expect(
      await within(vitals).findByText(/^Latest reading: Blood pressure 128\/82 mmHg, taken /),
    ).toBeVisible();
    const asked = network
      .callsTo('GET', '/api/command-centers/readings')
      .map((call) => call.url.searchParams.getAll('filters'));
    expect(asked).toContainEqual([`iotDevice.id~${ids.cuff}`, 'dataType~blood_pressure']);
  });

  it('says when no IoT device measures the person', async () => {
    network
      .on('GET', `/api/command-centers/users/${ids.patient}`, () => json({ ...patient, assignedDevices: [] }))
      .on('GET', '/api/command-centers/iot-devices', () => json(fakeList(iotDeviceSchema, [])));
    renderApp(`/command-center/${ids.patient}`, { env: 'test' });
    expect(await screen.findByText('No IoT device sends readings for this person.')).toBeVisible();
    // Without devices of their own, only the assigned IoT devices are asked for.
    expect(network.callsTo('GET', '/api/command-centers/iot-devices')).toHaveLength(1);
    expect(network.callsTo('GET', '/api/command-centers/readings')).toHaveLength(0);
  });

  it('reads a person of another center as not found, and asks nothing more of them', async () => {
    const stranger = '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fff';
    network.on('GET', `/api/command-centers/users/${stranger}`, () =>
      json({ statusCode: 404, error: 'Not Found', message: 'User not found' }, 404),
    );
    renderApp(`/command-center/${stranger}`, { env: 'test' });
    expect(await screen.findByText('Not in your command centers')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the command center' })).toBeVisible();
    expect(network.callsTo('GET', '/api/command-centers/iot-devices')).toHaveLength(0);
    expect(network.callsTo('GET', '/api/command-centers/readings')).toHaveLength(0);
    expect(network.callsTo('GET', '/api/command-centers/alerts')).toHaveLength(0);
  });

  it("leaves out a device linked to the person's tablet but assigned to someone else", async () => {
    const neighbours = iotDevice('0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb6', 'Scale 3', 'battery', {
      assignedUserId: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb7',
    });
    network.on('GET', '/api/command-centers/iot-devices', (call) =>
      json(
        fakeList(
          iotDeviceSchema,
          call.url.searchParams.get('filters')!.startsWith('assignedUser.id~') ? [pulse] : [cuff, neighbours],
        ),
      ),
    );
    renderApp(`/command-center/${ids.patient}`, { env: 'test' });
    const vitals = await screen.findByRole('region', { name: 'Vital signs' });
    await userEvent.click(await within(vitals).findByRole('combobox', { name: 'IoT device' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Pulse 2 (HW-Pulse)', 'Cuff 7 (HW-Cuff)']);
  });

  it('tells a patient that the page is not theirs, and asks nothing of the person', async () => {
    const someone = makeUser({ roles: ['public'], localRoles: ['patient'] });
    signIn(someone);
    network.on('GET', '/api/users/me', () => json(someone));
    renderApp(`/command-center/${ids.patient}`, { env: 'test' });
    expect(await screen.findByText(/You may not open the command center/)).toBeVisible();
    expect(network.calls.filter((call) => call.url.pathname.startsWith('/api/command-centers'))).toEqual([]);
  });

  it('speaks Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp(`/command-center/${ids.patient}`, { env: 'test' });
    const vitals = await screen.findByRole('region', { name: 'สัญญาณชีพ' });
    expect(await within(vitals).findByText(/^ค่าล่าสุด: /)).toBeVisible();
    expect(screen.getByRole('link', { name: 'กลับไปที่ศูนย์สั่งการ' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'การแจ้งเตือนที่ยังเปิดอยู่' })).toBeVisible();
  });
});
