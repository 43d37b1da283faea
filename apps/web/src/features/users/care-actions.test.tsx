// The care actions on a user's page ask first: "Send alert" for its message (required, one line, bounded, as
// the contract says) and "Reboot devices" naming the devices it restarts; nothing is sent before that.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertSchema } from '@careplane/shared/alerts/alerts.contract';
import {
  MAX_USER_ALERT_MESSAGE,
  USER_ALERT_SUGGESTION,
} from '@careplane/shared/command-centers/command-centers.contract';
import { deviceJobSchema } from '@careplane/shared/devices/devices.contract';
import { userSchema } from '@careplane/shared/users/users.contract';
import { fakeList, fakeUser, signedInAdmin } from '@/test/admin-fakes.ts';
import { renderApp } from '@/test/app.tsx';
import { json, type FakeNetwork } from '@/test/network.ts';
import { rebootQuestion } from './components/care-actions.tsx';

const ids = {
  user: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f91',
  terminal: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb1',
  hub: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb2',
  alert: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8fb3',
};
const stamp = { createdAt: '2026-11-20T08:00:00.000Z', updatedAt: '2026-11-20T08:00:00.000Z' };
const somchai = fakeUser({
  id: ids.user,
  firstName: 'Somchai',
  lastName: 'Boonmee',
  assignedDevices: [
    { id: ids.terminal, title: 'Terminal of Somchai' },
    { id: ids.hub, title: 'Living room hub' },
  ],
});
const jobOn = (deviceId: string, command: string) =>
  deviceJobSchema.parse({
    id: deviceId.replace(/b(\d)$/, 'c$1'),
    ...stamp,
    purpose: 'Care action',
    commands: [command],
    results: [],
    status: 'NEW',
    notBefore: stamp.createdAt,
    deviceId,
    createdByUserId: null,
  });
let network: FakeNetwork;

beforeEach(() => {
  network = signedInAdmin()
    .on('GET', '/api/users', () => json(fakeList(userSchema, [somchai])))
    .on('GET', `/api/users/${ids.user}`, () => json(somchai))
    .on('GET', '/api/alerts', () => json(fakeList(alertSchema, [])))
    .on('POST', `/api/command-centers/users/${ids.user}/device/reboot`, () =>
      json({ jobs: [jobOn(ids.terminal, 'reboot'), jobOn(ids.hub, 'reboot')] }, 201),
    )
    .on('POST', `/api/command-centers/users/${ids.user}/alert`, (call) => {
      const { message } = JSON.parse(call.body!) as { message: string };
      const alert = alertSchema.parse({
        id: ids.alert,
        ...stamp,
        isActive: true,
        severity: 'warning',
        timestamp: 1,
        data: { kind: 'manual', message },
        closingData: null,
        acknowledgedAt: null,
        acknowledgedByUserId: null,
        closedAt: null,
        iotDeviceId: null,
        userId: ids.user,
        closedByUserId: null,
        createdByUserId: null,
      });
      return json({ alert, jobs: [jobOn(ids.terminal, `notify ${message}`)] }, 201);
    })
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const care = () => screen.findByRole('region', { name: 'Care actions' });

describe('care actions', () => {
  it('asks before a reboot, naming the devices it restarts; cancelling sends nothing', async () => {
    renderApp(`/admin/users/${ids.user}`, { env: 'test' });
    await userEvent.click(within(await care()).getByRole('button', { name: 'Reboot devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reboot devices' });
    expect(dialog.textContent).toContain('Restart 2 devices: Terminal of Somchai, Living room hub?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(network.callsTo('POST', `/api/command-centers/users/${ids.user}/device/reboot`)).toHaveLength(0);

    await userEvent.click(within(await care()).getByRole('button', { name: 'Reboot devices' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Reboot devices' })).getByRole('button', {
        name: 'Restart devices',
      }),
    );
    expect(await within(await care()).findByText('Reboot requested')).toBeVisible();
    expect(network.callsTo('POST', `/api/command-centers/users/${ids.user}/device/reboot`)).toHaveLength(1);
  });

  it('says one device in the singular', () => {
    expect(rebootQuestion(['Terminal of Somchai'])).toBe('Restart 1 device: Terminal of Somchai?');
  });

  it('sends an alert only with a message: required, one line, at most the contract’s length', async () => {
    renderApp(`/admin/users/${ids.user}`, { env: 'test' });
    await userEvent.click(within(await care()).getByRole('button', { name: 'Send alert' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send an alert to Somchai Boonmee' });
    const field = within(dialog).getByRole('textbox', { name: /Message/ });
    const send = () => within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Send alert' });
    await userEvent.clear(field);
    expect(send().disabled).toBe(true);
    expect(within(dialog).getByText('Message is required.')).toBeVisible();
    await userEvent.type(field, 'x'.repeat(MAX_USER_ALERT_MESSAGE + 1));
    expect(send().disabled).toBe(true);
    await userEvent.clear(field);
    await userEvent.type(field, 'Please call the nurse{Enter}today');
    expect(send().disabled).toBe(true);
    expect(within(dialog).getByText('Must be one line, without control characters')).toBeVisible();
    await userEvent.clear(field);
    await userEvent.type(field, '  Please call the nurse today  ');
    await userEvent.click(send());
    expect(await within(await care()).findByText('Alert sent')).toBeVisible();
    const calls = network.callsTo('POST', `/api/command-centers/users/${ids.user}/alert`);
    expect(calls.map((call) => JSON.parse(call.body!))).toEqual([{ message: 'Please call the nurse today' }]);
  });

  it('suggests the message in the console’s language', async () => {
    renderApp(`/admin/users/${ids.user}`, { env: 'test' });
    await userEvent.click(within(await care()).getByRole('button', { name: 'Send alert' }));
    const english = await screen.findByRole('dialog', { name: 'Send an alert to Somchai Boonmee' });
    expect(within(english).getByRole('textbox', { name: /Message/ })).toHaveValue(USER_ALERT_SUGGESTION);
    cleanup();

    await act(() => i18next.changeLanguage('th'));
    renderApp(`/admin/users/${ids.user}`, { env: 'test' });
    const thaiCare = await screen.findByRole('region', { name: 'การดูแล' });
    await userEvent.click(within(thaiCare).getByRole('button', { name: 'ส่งการแจ้งเตือน' }));
    const thai = await screen.findByRole('dialog', { name: 'ส่งการแจ้งเตือนถึง Somchai Boonmee' });
    expect(within(thai).getByRole('textbox', { name: /ข้อความ/ })).toHaveValue('ทีมดูแลของคุณขอให้คุณติดต่อกลับ');
  });
});
