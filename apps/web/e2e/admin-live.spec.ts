// Live updates: an admin watching a device's page sees a new stat and a job's status change without reload,
// both made through the API by the test while the page stays open.
import { sessionAccessToken, unique } from './support/admin.ts';
import { expect, test } from './support/test.ts';

/** A device stat as the agent sends it (spec §5). */
const stat = (firmware: string, device: string) => ({
  timestamp: Date.now(),
  bootTime: Date.now() - 60_000,
  firmware,
  network: [
    {
      name: 'eth0',
      mac: '02:42:ac:11:00:02',
      type: 'wired',
      active: true,
      ip4: { ip: '10.0.0.12', extIp: null, gateway: '10.0.0.1', dns: '10.0.0.1' },
      ip6: { ip: 'fe80::42:acff:fe11:2', extIp: null, gateway: null, dns: null },
    },
  ],
  system: {
    osVersion: 'Debian 12.5',
    loadAverage: { user: 12.5, wait: 0.4, system: 3.1 },
    hdd: { usage: 41.2, used: 52_000_000_000 },
    cpu: { usage: 16, used: 1_200_000 },
    memory: { usage: 63.5, used: 2_700_000_000 },
    swap: { usage: 0, used: 0 },
  },
  hardware: {
    cpu: [{ model: 'ARM Cortex-A72', cores: 4, speed: 1800 }],
    memory: { total: 4_294_967_296 },
    disks: [{ name: 'mmcblk0', size: 128_000_000_000, type: 'ssd' }],
  },
  device,
});

test("a device's page shows a new stat and a job's new status without reload", async ({ page }) => {
  await page.goto('/admin');
  const token = await sessionAccessToken(page);
  const headers = { authorization: `Bearer ${token}` };
  const post = async (url: string, data: object) => {
    const response = await page.request.post(url, { headers, data });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as { id: string };
  };

  const title = unique('Live tablet');
  const device = await post('/api/devices', { title });
  // The page and its live stream: the stream is open once its answer has begun.
  const streamOpen = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/events' && response.status() === 200,
  );
  await page.goto(`/admin/devices/${device.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const stats = page.getByRole('region', { name: 'Recent stats' });
  const jobs = page.getByRole('region', { name: 'Jobs' });
  await expect(stats).toBeVisible();
  await streamOpen;
  const loads = page.url();

  const firmware = unique('live-os');
  await post('/api/devices/stats', stat(firmware, device.id));
  await expect(stats.getByText(firmware)).toBeVisible();

  const purpose = unique('Live reboot');
  const job = await post('/api/devices/jobs', { purpose, commands: ['reboot'], device: device.id });
  const row = jobs.getByRole('listitem').filter({ hasText: purpose });
  await expect(row).toContainText('NEW');
  const cancelled = await page.request.patch(`/api/devices/jobs/${job.id}`, {
    headers,
    data: { status: 'CANCELLED' },
  });
  expect(cancelled.status()).toBe(200);
  await expect(row).toContainText('CANCELLED');
  // The same page all along: nothing reloaded it.
  expect(page.url()).toBe(loads);
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
});
