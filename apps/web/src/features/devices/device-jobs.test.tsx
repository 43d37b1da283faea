// A device's page lists its jobs with their status and cancels those not yet running; the new-job form names
// the agent's vocabulary. The API is faked at the network edge.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deviceJobSchema, deviceSchema, type DeviceJob } from '@careplane/shared/devices/devices.contract';
import { fakeDevice, fakeList, signedInAdmin } from '@/test/admin-fakes.ts';
import { renderApp } from '@/test/app.tsx';
import { json, type FakeNetwork } from '@/test/network.ts';

const deviceId = '0190f6a2-6d3b-7c8e-9f00-0000000000d1';
const at = '2030-01-01T08:00:00.000Z';
const device = fakeDevice({ id: deviceId });
const job = (id: string, status: DeviceJob['status'], purpose: string): DeviceJob => ({
  id: `0190f6a2-6d3b-7c8e-9f00-00000000${id}`,
  createdAt: at,
  updatedAt: at,
  purpose,
  commands: ['reboot'],
  results: [],
  status,
  notBefore: at,
  leaseExpiresAt: null,
  deviceId,
  createdByUserId: null,
});
const jobs = [
  job('0a01', 'NEW', 'Nightly reboot'),
  job('0a02', 'ACCEPTED', 'Collect logs'),
  job('0a03', 'RUNNING', 'Ping the gateway'),
  job('0a04', 'TIMED_OUT', 'Silent device'),
];
let network: FakeNetwork;

beforeEach(() => {
  network = signedInAdmin()
    .on('GET', `/api/devices/${deviceId}`, () => json(device))
    .on('GET', `/api/devices/${deviceId}/last-stats-submission`, () => json(null))
    .on('GET', '/api/devices/stats', () => json({ items: [], total: 0, limit: 5, offset: 0 }))
    .on('GET', '/api/devices/workstations', () => json({ items: [], total: 0, limit: 20, offset: 0 }))
    .on('GET', '/api/devices/jobs', () => json(fakeList(deviceJobSchema, jobs)))
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a device's jobs", () => {
  it('shows each status and cancels only the jobs not yet running', async () => {
    network.on('PATCH', `/api/devices/jobs/${jobs[1]!.id}`, () => json({ ...jobs[1], status: 'CANCELLED' }));
    renderApp(`/admin/devices/${deviceId}`, { env: 'test' });
    const section = (await screen.findByText('Nightly reboot')).closest('ul')!;
    for (const status of ['NEW', 'ACCEPTED', 'RUNNING', 'TIMED_OUT']) {
      expect(within(section).getByText(status)).toBeVisible();
    }
    expect(within(section).getByRole('button', { name: 'Cancel job Nightly reboot' })).toBeVisible();
    expect(within(section).queryByRole('button', { name: 'Cancel job Ping the gateway' })).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Cancel job Silent device' })).toBeNull();

    // It asks first, naming the job: kept, nothing is sent.
    await userEvent.click(within(section).getByRole('button', { name: 'Cancel job Collect logs' }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel this job?' });
    expect(dialog).toHaveTextContent('The device will not run “Collect logs”.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(network.callsTo('PATCH', `/api/devices/jobs/${jobs[1]!.id}`)).toHaveLength(0);

    await userEvent.click(within(section).getByRole('button', { name: 'Cancel job Collect logs' }));
    dialog = await screen.findByRole('dialog', { name: 'Cancel this job?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel the job' }));
    await waitFor(() => expect(network.callsTo('PATCH', `/api/devices/jobs/${jobs[1]!.id}`)).toHaveLength(1));
    expect(JSON.parse(network.callsTo('PATCH', `/api/devices/jobs/${jobs[1]!.id}`)[0]!.body!)).toEqual({
      status: 'CANCELLED',
    });
    expect(await screen.findByText('The job was cancelled.')).toBeVisible();
  });

  it('offers the agent vocabulary on the new-job form', async () => {
    renderApp(`/admin/devices/jobs/add?device=${deviceId}`, { env: 'test' });
    expect(
      await screen.findByText(/reboot, restart-agent, collect-logs, ping <host>, notify <text>/),
    ).toBeVisible();
  });
});

describe('the new-job form', () => {
  it('sends an empty purpose as empty, so the job reads the default the hint promises', async () => {
    network.on('POST', '/api/devices/jobs', () => json(job('0a05', 'NEW', 'No purpose provided.'), 201));
    renderApp(`/admin/devices/jobs/add?device=${deviceId}`, { env: 'test' });
    expect(await screen.findByText('Left empty, it reads “No purpose provided.”')).toBeVisible();
    await userEvent.type(screen.getByRole('textbox', { name: /Commands/ }), 'reboot');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(network.callsTo('POST', '/api/devices/jobs')).toHaveLength(1));
    expect(JSON.parse(network.callsTo('POST', '/api/devices/jobs')[0]!.body!)).toMatchObject({
      device: deviceId,
      purpose: '',
      commands: ['reboot'],
    });
  });

  it('shows the missing device’s error with the focus on it, not covered by its list', async () => {
    network.on('GET', '/api/devices', () => json(fakeList(deviceSchema, [device])));
    renderApp('/admin/devices/jobs/add', { env: 'test' });
    await userEvent.type(await screen.findByRole('textbox', { name: /Commands/ }), 'reboot');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    const deviceField = await screen.findByRole('combobox', { name: /Device/ });
    await waitFor(() => expect(deviceField).toHaveFocus());
    expect(deviceField).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Device is required.')).toBeVisible();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(network.callsTo('POST', '/api/devices/jobs')).toHaveLength(0);
    // The list still opens on a key.
    await userEvent.keyboard('{ArrowDown}');
    expect(await screen.findByRole('listbox')).toBeVisible();
  });
});

describe('in Thai', () => {
  it('titles the device’s page, its role, its jobs and their statuses in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp(`/admin/devices/${deviceId}`, { env: 'test' });
    const section = (await screen.findByText('Nightly reboot')).closest('ul')!;
    expect(within(section).getByText('ใหม่')).toBeVisible();
    expect(within(section).getByText('หมดเวลา')).toBeVisible();
    expect(within(section).getByRole('button', { name: 'ยกเลิกงาน Nightly reboot' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'งาน' })).toBeVisible();
    // The role's badge (the promotion's choices name it too).
    expect(screen.getAllByText('เครื่องปลายทางผู้ป่วย')[0]).toBeVisible();
  });

  it('titles the device jobs list and its columns in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp('/admin/devices/jobs', { env: 'test' });
    expect(await screen.findByRole('heading', { name: 'งานของอุปกรณ์', level: 1 })).toBeVisible();
    expect((await screen.findAllByText('วัตถุประสงค์')).length).toBeGreaterThan(0);
  });
});
