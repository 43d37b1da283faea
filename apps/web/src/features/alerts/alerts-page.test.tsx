// The alerts page: open alerts by default, narrowed by state, severity, command center (through the center's
// scoped list), IoT device and patient from the URL; who acknowledged and closed each and when; acknowledging
// from the page; and a query key that the admin area's live events refresh.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertSchema, type Alert } from '@careplane/shared/alerts/alerts.contract';
import { fakeList } from '@/test/admin-fakes.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';
import { browserNetwork } from '@/test/online.ts';
import { showsAny } from '@/lib/live-events.ts';
import { actionOutbox } from '@/lib/offline/action-outbox.ts';
import { alertsPageQuery } from './api/alerts.queries.ts';

const ids = {
  open: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8c01',
  closed: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8c02',
  center: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8c03',
  nurse: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8c04',
  patient: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8c05',
};
const nurse = { id: ids.nurse, firstName: 'Ann', lastName: 'Lee' };
const patient = { id: ids.patient, firstName: 'Malee', lastName: 'Srisawat' };
const base = {
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-20T08:00:00.000Z',
  closingData: null,
  iotDeviceId: null,
  userId: ids.patient,
  user: patient,
  closedByUserId: null,
  createdByUserId: null,
  acknowledgedAt: null,
  acknowledgedByUserId: null,
  closedAt: null,
};
const fever = {
  reason: 'out_of_bounds',
  dataType: 'temperature',
  count: 1,
  fields: { value: { min: 35, max: 39.5, lowest: 40.1, highest: 40.1 } },
  reading: { timestamp: 1, value: 40.1, unit: 'C' },
};
let open: Alert;
const closed = alertSchema.parse({
  ...base,
  id: ids.closed,
  isActive: false,
  severity: 'critical',
  timestamp: 1_794_000_000_000,
  data: { reason: 'alert_reading', reading: { id: 'e', type: 'fall_detected', timestamp: 1 } },
  closingData: { note: 'Patient is fine' },
  acknowledgedAt: '2026-11-20T08:05:00.000Z',
  acknowledgedByUserId: ids.nurse,
  acknowledgedByUser: nurse,
  closedAt: '2026-11-20T08:30:00.000Z',
  closedByUserId: ids.nurse,
  closedByUser: nurse,
});
let network: FakeNetwork;

beforeEach(() => {
  open = alertSchema.parse({
    ...base,
    id: ids.open,
    isActive: true,
    severity: 'warning',
    timestamp: 1_795_000_000_000,
    data: fever,
  });
  resetSession();
  signIn(makeUser({ roles: ['admin'] }));
  const answer = (call: { url: URL }) => {
    const filters = call.url.searchParams.getAll('filters');
    const items = filters.includes('isActive~false')
      ? [closed]
      : filters.includes('isActive~true')
        ? [open]
        : [open, closed];
    return json(fakeList(alertSchema, items));
  };
  network = fakeNetwork()
    .on('GET', '/api/users/me', () => json(makeUser({ roles: ['admin'] })))
    .on('GET', '/api/alerts', answer)
    .on('GET', '/api/command-centers/alerts', answer)
    .on('GET', '/api/command-centers', () => json({ items: [], total: 0, limit: 20, offset: 0 }))
    .on('POST', `/api/alerts/${ids.open}/acknowledge`, () => {
      open = {
        ...open,
        acknowledgedAt: '2026-11-20T10:00:00.000Z',
        acknowledgedByUserId: ids.nurse,
        acknowledgedByUser: nurse,
      };
      return json(open);
    })
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const lastRequest = (path: string) => network.callsTo('GET', path).at(-1)!.url.searchParams;

describe('the alerts page', () => {
  it('lists the open alerts, titled, and acknowledges one, naming who did', async () => {
    renderApp('/admin/alerts', { env: 'test' });
    const list = await screen.findByRole('list', { name: 'Alerts' });
    expect(lastRequest('/api/alerts').getAll('filters')).toEqual(['isActive~true']);
    expect(lastRequest('/api/alerts').get('relations')).toBe(
      'user,iotDevice,createdByUser,acknowledgedByUser,closedByUser',
    );
    const item = within(list).getByRole('listitem', { name: 'Temperature 40.1 °C, above 39.5' });
    expect(within(item).getByRole('link', { name: 'Malee Srisawat' })).toBeVisible();
    await userEvent.click(within(item).getByRole('button', { name: 'Acknowledge' }));
    await waitFor(() =>
      expect(network.callsTo('POST', `/api/alerts/${ids.open}/acknowledge`)).toHaveLength(1),
    );
    // Sent at once: nothing to say about when it was tapped.
    expect(network.callsTo('POST', `/api/alerts/${ids.open}/acknowledge`)[0]!.body ?? null).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('listitem', { name: 'Temperature 40.1 °C, above 39.5' }).textContent).toContain(
        'Acknowledged by Ann Lee on',
      ),
    );
  });

  it('keeps an acknowledgement tapped offline on the device, through a reload, and sends it once back with its key, saying when it was tapped', async () => {
    const setOnline = browserNetwork();
    const title = 'Temperature 40.1 °C, above 39.5';
    const acknowledgements = () => network.callsTo('POST', `/api/alerts/${ids.open}/acknowledge`);
    renderApp('/admin/alerts', { env: 'test' });
    let item = await screen.findByRole('listitem', { name: title });
    setOnline(false);
    const beforeTap = Date.now();
    await userEvent.click(within(item).getByRole('button', { name: 'Acknowledge' }));
    expect(await within(item).findByText('Acknowledge — queued, will send when online')).toBeVisible();
    expect(within(item).queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(
      await screen.findByText(
        `“Acknowledge” kept on this device: ${title}. It is sent when you are back online.`,
      ),
    ).toBeVisible();
    expect(actionOutbox.entries()).toMatchObject([
      { kind: 'alert', alertId: ids.open, action: 'acknowledge', via: 'admin', subject: title },
    ]);
    expect(acknowledgements()).toHaveLength(0);

    // The page is closed and opened again, still offline: the action is still there, and says so.
    cleanup();
    renderApp('/admin/alerts', { env: 'test' });
    item = await screen.findByRole('listitem', { name: title });
    expect(await within(item).findByText('Acknowledge — queued, will send when online')).toBeVisible();
    expect(acknowledgements()).toHaveLength(0);

    const { key } = actionOutbox.entries()[0]!;
    // The network comes back a minute and a half after the tap.
    vi.spyOn(Date, 'now').mockReturnValue(beforeTap + 90_000);
    setOnline(true);
    await waitFor(() => expect(acknowledgements()).toHaveLength(1));
    // The server records it as taken when it was tapped (decision 105), by the seconds this phone counted, and
    // applies it once whatever repeats it (decision 107).
    const [sent] = acknowledgements();
    const body = JSON.parse(sent!.body!) as { keptForSeconds: number };
    expect(body.keptForSeconds).toBeGreaterThanOrEqual(80);
    expect(body.keptForSeconds).toBeLessThanOrEqual(90);
    expect(sent!.headers['idempotency-key']).toBe(key);
    expect(await screen.findByText(`Kept action sent: Acknowledge — ${title}.`)).toBeVisible();
    await waitFor(() =>
      expect(within(screen.getByRole('listitem', { name: title })).queryByText(/queued/)).toBeNull(),
    );
    expect(actionOutbox.entries()).toEqual([]);
    await waitFor(() =>
      expect(screen.getByRole('listitem', { name: title }).textContent).toContain(
        'Acknowledged by Ann Lee on',
      ),
    );
  });

  it('keeps an acknowledgement the server could not take (503), and sends it again with the same key', async () => {
    const title = 'Temperature 40.1 °C, above 39.5';
    const acknowledgements = () => network.callsTo('POST', `/api/alerts/${ids.open}/acknowledge`);
    let refused = 0;
    network.on('POST', `/api/alerts/${ids.open}/acknowledge`, () => {
      if (refused++ === 0) {
        return json({ statusCode: 503, error: 'Service Unavailable', message: 'Try again shortly' }, 503);
      }
      open = { ...open, acknowledgedAt: '2026-11-20T10:00:00.000Z', acknowledgedByUserId: ids.nurse };
      return json(open);
    });
    renderApp('/admin/alerts', { env: 'test' });
    const item = await screen.findByRole('listitem', { name: title });
    await userEvent.click(within(item).getByRole('button', { name: 'Acknowledge' }));
    // Online, it waits for the server, not for the network.
    expect(await within(item).findByText('Acknowledge — queued, sending shortly')).toBeVisible();
    expect(
      await screen.findByText(
        `“Acknowledge” kept on this device: ${title}. It is sent as soon as the server takes it.`,
      ),
    ).toBeVisible();
    expect(within(item).queryByRole('alert')).toBeNull();
    const [first] = acknowledgements();

    // The runner tries again (here at the browser's online event rather than after its 15 s).
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(acknowledgements()).toHaveLength(2));
    expect(acknowledgements()[1]!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(await screen.findByText(`Kept action sent: Acknowledge — ${title}.`)).toBeVisible();
    expect(actionOutbox.entries()).toEqual([]);
  });

  it('names who sent an alert by hand', async () => {
    open = alertSchema.parse({
      ...open,
      data: { kind: 'manual', message: 'Please open the door for the nurse' },
      createdByUserId: ids.nurse,
      createdByUser: nurse,
    });
    renderApp('/admin/alerts', { env: 'test' });
    const item = await screen.findByRole('listitem', { name: 'Please open the door for the nurse' });
    expect(within(item).getByText('Sent by Ann Lee')).toBeVisible();
  });

  it('shows closed alerts with who acknowledged and closed them, and when', async () => {
    const { router } = renderApp('/admin/alerts', { env: 'test' });
    await screen.findByRole('list', { name: 'Alerts' });
    await userEvent.click(screen.getByRole('radio', { name: 'Closed' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=closed'));
    const item = await screen.findByRole('listitem', { name: 'Fall detected' });
    expect(lastRequest('/api/alerts').getAll('filters')).toEqual(['isActive~false']);
    expect(item.textContent).toContain('Acknowledged by Ann Lee on');
    expect(item.textContent).toMatch(/Closed by Ann Lee on .+\. Closing note: Patient is fine/);
    expect(within(item).queryByRole('button')).toBeNull();
  });

  it('narrows by severity, IoT device and patient, and by command center through its scoped list', async () => {
    renderApp(`/admin/alerts?status=all&severity=critical&iotDevice=${ids.open}&patient=${ids.patient}`, {
      env: 'test',
    });
    await screen.findByRole('list', { name: 'Alerts' });
    expect(lastRequest('/api/alerts').getAll('filters')).toEqual([
      'severity~critical',
      `iotDevice.id~${ids.open}`,
      `user.id~${ids.patient}`,
    ]);
    cleanup();
    renderApp(`/admin/alerts?commandCenter=${ids.center}`, { env: 'test' });
    await screen.findByRole('list', { name: 'Alerts' });
    const scoped = lastRequest('/api/command-centers/alerts');
    expect(scoped.get('commandCenter')).toBe(ids.center);
    expect(scoped.getAll('filters')).toEqual(['isActive~true']);
  });

  it('is refreshed by the live events of alerts', () => {
    const filters = {
      status: 'active',
      severity: null,
      commandCenter: null,
      iotDevice: null,
      patient: null,
      page: 1,
    } as const;
    expect(showsAny(alertsPageQuery(filters).queryKey, new Set(['alerts']))).toBe(true);
  });
});

describe('the alerts page in Thai', () => {
  it('titles the page, its filters, the severity and the actions in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp('/admin/alerts', { env: 'test' });
    const list = await screen.findByRole('list', { name: 'รายการแจ้งเตือน' });
    expect(screen.getByRole('heading', { name: 'การแจ้งเตือน', level: 1 })).toBeVisible();
    expect(screen.getByText('การแจ้งเตือนที่ยังเปิดอยู่ 1 รายการ')).toBeVisible();
    expect(screen.getByRole('radio', { name: 'ปิดแล้ว' })).toBeInTheDocument();
    expect(within(list).getByText('เฝ้าระวัง')).toBeVisible();
    expect(within(list).getByRole('button', { name: 'รับทราบ' })).toBeVisible();
  });

  it("says the reader's own acknowledgement as a person says it, and a colleague's by name", async () => {
    await act(() => i18next.changeLanguage('th'));
    signIn(makeUser({ id: ids.nurse, roles: ['admin'] }));
    renderApp('/admin/alerts?status=closed', { env: 'test' });
    const item = await screen.findByRole('listitem', { name: /หกล้ม/ });
    expect(within(item).getByText(/^คุณรับทราบแล้วเมื่อ /)).toBeVisible();
    cleanup();
    signIn(makeUser({ roles: ['admin'] }));
    renderApp('/admin/alerts?status=closed', { env: 'test' });
    expect(await screen.findByText(/^รับทราบโดย Ann Lee เมื่อ /)).toBeVisible();
  });
});
