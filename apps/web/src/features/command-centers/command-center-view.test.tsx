// The supervisor's command-center view: its four sections from the scoped calls, the care action on a user,
// and what someone who supervises no center is told.
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertTitle } from '@careplane/shared/alerts/alert-title';
import { alertSchema, type Alert } from '@careplane/shared/alerts/alerts.contract';
import { personName } from '@careplane/shared/common/record-labels';
import { deviceJobSchema, deviceSchema } from '@careplane/shared/devices/devices.contract';
import { userSchema } from '@careplane/shared/users/users.contract';
import { AppProvider } from '@/app/provider.tsx';
import { createQueryClient } from '@/lib/query-client.ts';
import { fakeAlert, fakeList, fakeUser } from '@/test/admin-fakes.ts';
import { resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';
import { browserNetwork } from '@/test/online.ts';
import { CommandCenterView } from './command-center-view.tsx';

const ids = {
  patient: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fa1',
  device: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fa2',
  job: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fa3',
  alert: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fa4',
};
const stamp = { createdAt: '2026-11-20T08:00:00.000Z', updatedAt: '2026-11-20T08:00:00.000Z' };
const patient = fakeUser({
  id: ids.patient,
  firstName: 'Malee',
  lastName: 'Srisawat',
  localRoles: ['patient'],
});
const device = deviceSchema.parse({
  id: ids.device,
  ...stamp,
  title: 'Bedside tablet',
  location: null,
  isEnabled: true,
  role: 'patient_terminal',
  localRoles: [],
  assignedUserId: ids.patient,
  commandCenterId: null,
  createdByUserId: null,
  assignedUser: { id: ids.patient, firstName: 'Malee', lastName: 'Srisawat' },
});
const job = deviceJobSchema.parse({
  id: ids.job,
  ...stamp,
  purpose: 'Reboot after update',
  commands: ['reboot'],
  results: [],
  status: 'RUNNING',
  notBefore: stamp.createdAt,
  deviceId: ids.device,
  createdByUserId: null,
  device: { id: ids.device, title: 'Bedside tablet' },
});
const alert = fakeAlert({
  id: ids.alert,
  data: { kind: 'heart_rate', message: 'Heart rate 150 above 130' },
  userId: ids.patient,
  user: { id: ids.patient, firstName: 'Malee', lastName: 'Srisawat' },
});

let network: FakeNetwork;
beforeEach(() => {
  resetSession();
  signIn();
  network = fakeNetwork().install();
  network
    .on('GET', '/api/command-centers/users', () => json(fakeList(userSchema, [patient])))
    .on('GET', '/api/command-centers/devices', () => json(fakeList(deviceSchema, [device])))
    .on('GET', '/api/command-centers/alerts', () => json(fakeList(alertSchema, [alert])))
    .on('GET', '/api/command-centers/jobs', () => json(fakeList(deviceJobSchema, [job])));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** One open alert as the app draws it there (the alerts feature's entry; its own tests say more). */
const alertItem = (item: Alert) => (
  <li>
    <span>{alertTitle(item)}</span>
    <span>{item.user ? personName(item.user) : ''}</span>
  </li>
);

const renderView = () =>
  render(
    <AppProvider queryClient={createQueryClient()} env="test">
      <MemoryRouter>
        <CommandCenterView alertItem={alertItem} />
      </MemoryRouter>
    </AppProvider>,
  );

describe('the command-center view', () => {
  it("shows the center's open alerts, jobs, users and devices", async () => {
    renderView();
    const alerts = await screen.findByRole('region', { name: 'Open alerts' });
    expect(await within(alerts).findByText('Heart rate 150 above 130')).toBeVisible();
    expect(within(alerts).getByText('Malee Srisawat')).toBeVisible();
    const jobs = screen.getByRole('region', { name: 'Jobs' });
    expect(await within(jobs).findByText('Reboot after update')).toBeVisible();
    expect(within(jobs).getByText('RUNNING')).toBeVisible();
    expect(within(screen.getByRole('region', { name: 'Devices' })).getByText('Bedside tablet')).toBeVisible();
    expect(within(screen.getByRole('region', { name: 'Users' })).getByText('Malee Srisawat')).toBeVisible();
    // Every column says what it holds (the users' last one, their actions, to screen readers).
    const headers = (region: string) =>
      within(screen.getByRole('region', { name: region }))
        .getAllByRole('columnheader')
        .map((header) => header.textContent);
    expect(headers('Users')).toEqual(['Name', 'Roles', 'Actions']);
    expect(headers('Devices')).toEqual(['Device', 'Role', 'Assigned to']);
    // Only open alerts are asked for, newest first, with whom and what they concern, and who acknowledged
    // them.
    const asked = network.callsTo('GET', '/api/command-centers/alerts')[0]!.url.searchParams;
    expect(asked.get('filters')).toBe('isActive~true');
    expect(asked.get('sort')).toBe('timestamp:desc');
    expect(asked.get('relations')).toBe('user,iotDevice,acknowledgedByUser');
  });

  it('pages a section of more than ten: every user of a large center can be reached', async () => {
    const people = Array.from({ length: 23 }, (_, index) =>
      fakeUser({
        id: `0195f3a2-7c41-7d2e-9a10-${String(index).padStart(12, '0')}`,
        firstName: 'Person',
        lastName: `No. ${index + 1}`,
        localRoles: ['patient'],
      }),
    );
    network.on('GET', '/api/command-centers/users', (call) => {
      const offset = Number(call.url.searchParams.get('offset'));
      const limit = Number(call.url.searchParams.get('limit'));
      return json(fakeList(userSchema, people.slice(offset, offset + limit), people.length));
    });
    renderView();
    const users = await screen.findByRole('region', { name: 'Users' });
    expect(await within(users).findByText('Person No. 1')).toBeVisible();
    expect(within(users).getAllByRole('button', { name: 'Send an alert' })).toHaveLength(10);
    expect(within(users).getByText('23')).toBeVisible();
    // Other sections of one record draw no page numbers.
    expect(
      within(screen.getByRole('region', { name: 'Devices' })).queryByRole('button', { name: 'Page 1' }),
    ).toBeNull();

    await userEvent.click(within(users).getByRole('button', { name: 'Page 3' }));
    expect(await within(users).findByText('Person No. 21')).toBeVisible();
    expect(within(users).queryByText('Person No. 1')).toBeNull();
    expect(within(users).getAllByRole('button', { name: 'Send an alert' })).toHaveLength(3);
    expect(network.callsTo('GET', '/api/command-centers/users').at(-1)!.url.searchParams.get('offset')).toBe(
      '20',
    );
  });

  it('sends an alert to a user of the center', async () => {
    network.on('POST', `/api/command-centers/users/${ids.patient}/alert`, () =>
      json(
        { alert, jobs: [{ ...job, status: 'NEW', purpose: 'Alert sent to the user by the care team' }] },
        201,
      ),
    );
    renderView();
    const users = await screen.findByRole('region', { name: 'Users' });
    await userEvent.click(await within(users).findByRole('button', { name: 'Send an alert' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send an alert to Malee Srisawat' });
    const message = within(dialog).getByRole('textbox', { name: /Message/ });
    await userEvent.clear(message);
    // An empty message is not sent.
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Send alert' }).disabled).toBe(true);
    await userEvent.type(message, 'Please open the door for the nurse');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send alert' }));
    expect(await screen.findByText('An alert was sent to Malee Srisawat.')).toBeVisible();
    const calls = network.callsTo('POST', `/api/command-centers/users/${ids.patient}/alert`);
    expect(calls).toHaveLength(1);
    expect(JSON.parse(calls[0]!.body!)).toEqual({ message: 'Please open the door for the nurse' });
  });

  it('offline, says at once that an alert was not sent, and sends nothing once the network is back', async () => {
    const setOnline = browserNetwork();
    network.on('POST', `/api/command-centers/users/${ids.patient}/alert`, () => {
      // No answer: what fetch does without a network.
      throw new TypeError('Failed to fetch');
    });
    renderView();
    const users = await screen.findByRole('region', { name: 'Users' });
    await userEvent.click(await within(users).findByRole('button', { name: 'Send an alert' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send an alert to Malee Srisawat' });
    const message = within(dialog).getByRole('textbox', { name: /Message/ });
    await userEvent.clear(message);
    await userEvent.type(message, 'Please call the care team');
    setOnline(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send alert' }));
    expect(
      await within(dialog).findByText(
        'You are offline, so this was not sent: it needs the network. Try again once you are back online.',
      ),
    ).toBeVisible();
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Send alert' }).disabled).toBe(
      false,
    );
    const sent = () => network.callsTo('POST', `/api/command-centers/users/${ids.patient}/alert`);
    expect(sent()).toHaveLength(1);

    // Nothing waited paused to go by itself once the person has moved on.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    setOnline(true);
    await act(async () => {
      await Promise.resolve();
    });
    expect(sent()).toHaveLength(1);
    vi.restoreAllMocks();
  });

  it('tells of an alert that opens while the view is open, not of those already open or older', async () => {
    const queryClient = createQueryClient();
    let open = [alert];
    network.on('GET', '/api/command-centers/alerts', () => json(fakeList(alertSchema, open)));
    render(
      <AppProvider queryClient={queryClient} env="test">
        <MemoryRouter>
          <CommandCenterView alertItem={alertItem} />
        </MemoryRouter>
      </AppProvider>,
    );
    const alerts = await screen.findByRole('region', { name: 'Open alerts' });
    await within(alerts).findByText('Heart rate 150 above 130');
    expect(screen.queryByText('New alert')).toBeNull();
    // An older alert comes into the list (another was closed, say): not news.
    const older = fakeAlert({
      id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb1',
      data: { message: 'Battery low on the watch' },
      createdAt: '2026-11-19T08:00:00.000Z',
    });
    open = [alert, older];
    await act(() => queryClient.invalidateQueries());
    await within(alerts).findByText('Battery low on the watch');
    expect(screen.queryByText('New alert')).toBeNull();
    // A fall reported now, as a live event refreshes the list: told, wherever the supervisor has scrolled.
    const fall = fakeAlert({
      id: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb2',
      data: { reason: 'alert_reading', reading: { id: 'f1', type: 'fall_detected', timestamp: 1 } },
      createdAt: '2026-11-20T09:00:00.000Z',
    });
    open = [fall, alert, older];
    await act(() => queryClient.invalidateQueries());
    expect(await screen.findByText('New alert')).toBeVisible();
    expect(screen.getAllByText('Fall detected')).toHaveLength(2);
  });

  it('opened offline, says a section waits for the network and loads it by itself once back', async () => {
    let online = false;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    let alertsAnswer = (): Response => {
      throw new TypeError('Failed to fetch');
    };
    network.on('GET', '/api/command-centers/alerts', () => alertsAnswer());
    renderView();
    const alerts = await screen.findByRole('region', { name: 'Open alerts' });
    expect(
      await within(alerts).findByText(
        'You are offline. This needs the network: it loads again once you are back online.',
        {},
        { timeout: 5_000 },
      ),
    ).toBeVisible();
    expect(within(alerts).queryByText('No open alerts.')).toBeNull();

    // Back online: no tap needed, the open alerts load again.
    online = true;
    alertsAnswer = () => json(fakeList(alertSchema, [alert]));
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await within(alerts).findByText('Heart rate 150 above 130', {}, { timeout: 5_000 })).toBeVisible();
    vi.restoreAllMocks();
  });

  it('says a section could not be loaded, out of reach or refused, rather than that it holds nothing', async () => {
    let alertsAnswer = (): Response => {
      throw new TypeError('Failed to fetch');
    };
    network
      .on('GET', '/api/command-centers/alerts', () => alertsAnswer())
      .on('GET', '/api/command-centers/jobs', () =>
        json({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' }, 500),
      );
    renderView();
    const alerts = await screen.findByRole('region', { name: 'Open alerts' });
    expect(
      await within(alerts).findByText('Could not load the open alerts.', {}, { timeout: 5_000 }),
    ).toBeVisible();
    expect(within(alerts).queryByText('No open alerts.')).toBeNull();
    const jobs = screen.getByRole('region', { name: 'Jobs' });
    expect(await within(jobs).findByText('Could not load the jobs.', {}, { timeout: 5_000 })).toBeVisible();
    expect(within(jobs).queryByText(/^No /)).toBeNull();

    alertsAnswer = () => json(fakeList(alertSchema, [alert]));
    await userEvent.click(within(alerts).getByRole('button', { name: 'Try again' }));
    expect(await within(alerts).findByText('Heart rate 150 above 130')).toBeVisible();
    expect(within(alerts).queryByRole('alert')).toBeNull();
  });

  it('tells someone who supervises no center so', async () => {
    network.on('GET', '/api/command-centers/users', () =>
      json({ statusCode: 403, error: 'Forbidden', message: 'Only users assigned to a command center' }, 403),
    );
    renderView();
    expect(await screen.findByText('You are not assigned to a command center.')).toBeVisible();
  });

  it('speaks Thai: titles, sections, job statuses and roles', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderView();
    expect(screen.getByRole('heading', { level: 1, name: 'ศูนย์สั่งการ' })).toBeVisible();
    const jobs = await screen.findByRole('region', { name: 'งานของอุปกรณ์' });
    expect(await within(jobs).findByText('กำลังทำงาน')).toBeVisible();
    const users = screen.getByRole('region', { name: 'ผู้ใช้' });
    expect(await within(users).findByText('ผู้ป่วย')).toBeVisible();
    expect(within(users).getByRole('button', { name: 'ส่งการแจ้งเตือน' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'การแจ้งเตือนที่ยังเปิดอยู่' })).toBeVisible();
  });
});
