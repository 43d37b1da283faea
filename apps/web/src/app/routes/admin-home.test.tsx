// The admin home's open alerts: titled from their readings, with whom they concern; the count is of every
// open alert and the home says how many of them it shows, linking to the alerts page for the rest; an alert is
// acknowledged and closed from the home.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertSchema, type Alert } from '@careplane/shared/alerts/alerts.contract';
import { fakeList } from '@/test/admin-fakes.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';

const id = (n: number) => `0195f3a2-7c41-7d2e-9a10-4b5c6d7e8${String(n).padStart(3, '0')}`;
const somchai = { id: id(900), firstName: 'Somchai', lastName: 'Boonmee' };
const base = {
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-20T08:00:00.000Z',
  isActive: true,
  severity: 'critical',
  closingData: null,
  iotDeviceId: null,
  userId: null,
  closedByUserId: null,
  createdByUserId: null,
  acknowledgedAt: null,
  acknowledgedByUserId: null,
  closedAt: null,
};
const fall = {
  ...base,
  id: id(1),
  timestamp: 1_795_000_009_000,
  userId: somchai.id,
  user: somchai,
  data: {
    reason: 'alert_reading',
    dataType: 'alert',
    reading: { id: 'e1', type: 'fall_detected', timestamp: 1 },
  },
};
// No user: the home once said "No user named" here.
const slowHeart = {
  ...base,
  id: id(2),
  timestamp: 1_795_000_008_000,
  data: {
    reason: 'out_of_bounds',
    dataType: 'heart_rate',
    count: 1,
    fields: { rate: { min: 40, max: 130, lowest: 31, highest: 31 } },
    reading: { timestamp: 1, rate: 31 },
  },
};
const others = Array.from({ length: 7 }, (_, index) => ({
  ...base,
  id: id(10 + index),
  severity: 'warning',
  timestamp: 1_795_000_000_000 + index,
  data: { kind: 'manual', message: `Please call back (${index + 1})` },
}));
let open: Alert[];
let network: FakeNetwork;

beforeEach(() => {
  open = [fall, slowHeart, ...others].map((alert) => alertSchema.parse(alert));
  resetSession();
  signIn(makeUser({ roles: ['admin'] }));
  network = fakeNetwork()
    .on('GET', '/api/users/me', () => json(makeUser({ roles: ['admin'] })))
    // Like the server: a page of `limit` alerts, and the total of all that match.
    .on('GET', '/api/alerts', (call) => {
      const limit = Number(call.url.searchParams.get('limit') ?? 20);
      return json({ ...fakeList(alertSchema, open.slice(0, limit), open.length), limit });
    })
    .on('POST', `/api/alerts/${fall.id}/acknowledge`, () => {
      open[0] = { ...open[0]!, acknowledgedAt: '2026-11-20T10:00:00.000Z', acknowledgedByUserId: somchai.id };
      return json(open[0]);
    })
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the admin home’s open alerts', () => {
  it('counts every open alert and says how many it shows, linking to the rest', async () => {
    renderApp('/admin', { env: 'test' });
    const panel = await screen.findByRole('region', { name: 'Open alerts (9)' });
    const list = await within(panel).findByRole('list', { name: 'Open alerts' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(8);
    expect(panel.textContent).toContain('The latest 8 of 9 open alerts.');
    expect(within(panel).getByRole('link', { name: 'See all 9' }).getAttribute('href')).toBe('/admin/alerts');
  });

  it('titles each alert from its reading and names whom it concerns', async () => {
    renderApp('/admin', { env: 'test' });
    const list = await screen.findByRole('list', { name: 'Open alerts' });
    const fallen = within(list).getByRole('listitem', { name: 'Fall detected' });
    expect(within(fallen).getByRole('link', { name: 'Somchai Boonmee' })).toBeVisible();
    expect(within(list).getByRole('listitem', { name: 'Heart rate 31 /min, below 40' })).toBeVisible();
    expect(list.textContent).not.toMatch(/No user named|alert reading|out of bounds/);
  });

  it('acknowledges an alert from the home', async () => {
    renderApp('/admin', { env: 'test' });
    const list = await screen.findByRole('list', { name: 'Open alerts' });
    const fallen = within(list).getByRole('listitem', { name: 'Fall detected' });
    await userEvent.click(within(fallen).getByRole('button', { name: 'Acknowledge' }));
    await waitFor(() =>
      expect(network.callsTo('POST', `/api/alerts/${fall.id}/acknowledge`)).toHaveLength(1),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Open alerts' })).getByRole('listitem', {
          name: 'Fall detected',
        }).textContent,
      ).toContain('Open, acknowledged'),
    );
  });
});

describe('the admin home’s devices', () => {
  it('tells the devices of the hour just begun beside those of the hour before', async () => {
    const hours = Array.from({ length: 24 }, (_, index) =>
      new Date(Date.UTC(2026, 10, 29, index)).toISOString(),
    );
    network.on('GET', '/api/devices/charts', () =>
      json({ count: 12, labels: hours, data: [...Array<number>(22).fill(9), 10, 1] }),
    );
    renderApp('/admin', { env: 'test' });
    expect(
      await screen.findByText('12 in all; 1 reported so far this hour, 10 in the hour before'),
    ).toBeVisible();
  });
});

describe('the admin home in Thai', () => {
  it('titles the home, its panels and the side menu in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp('/admin', { env: 'test' });
    expect(await screen.findByRole('heading', { level: 1, name: 'หน้าหลักผู้ดูแลระบบ' })).toBeVisible();
    const panel = await screen.findByRole('region', { name: 'การแจ้งเตือนที่ยังเปิดอยู่ (9)' });
    expect(panel.textContent).toContain('แสดง 8 รายการล่าสุดจากการแจ้งเตือนที่ยังเปิดอยู่ 9 รายการ');
    expect(within(panel).getByRole('link', { name: 'ดูทั้งหมด 9 รายการ' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'เมนู' }));
    const menu = screen.getByRole('navigation', { name: 'เมนูผู้ดูแลระบบ' });
    for (const entry of ['ผู้ใช้งาน', 'ผู้ป่วย', 'งานของอุปกรณ์', 'ศูนย์สั่งการ', 'การตั้งค่า']) {
      expect(within(menu).getByRole('link', { name: entry })).toBeInTheDocument();
    }
    expect(within(menu).getByRole('button', { name: 'ออกจากระบบ' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'ปิดเมนู' })).toBeVisible();
    expect(document.body.textContent).not.toMatch(/Admin home|Open alerts|Device Jobs|Close Menu/);
  });
});
