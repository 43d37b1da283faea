// A device's charts draw every stat of their period: the newest page when it holds them all, otherwise the
// means, highest and lowest values the server sums up. The API is faked at the network edge.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceStat, DeviceStatsSummary } from '@careplane/shared/devices/devices.contract';
import { sampleStatSubmission } from '@careplane/shared/devices/devices.fixtures';
import { fakeDevice, signedInAdmin } from '@/test/admin-fakes.ts';
import { renderApp } from '@/test/app.tsx';
import { json, type FakeNetwork } from '@/test/network.ts';

const deviceId = '0190f6a2-6d3b-7c8e-9f00-0000000000d2';
const at = '2030-01-01T08:00:00.000Z';
const taken = Date.parse('2030-01-01T07:30:00.000Z');
const device = fakeDevice({ id: deviceId });
const sample = sampleStatSubmission();
const stat: DeviceStat = {
  ...sample,
  software: sample.software ?? null,
  id: '0190f6a2-6d3b-7c8e-9f00-00000000c001',
  timestamp: taken,
  bootTime: taken - 3_600_000,
  deviceId,
  createdAt: at,
};
const summaryPath = `/api/devices/${deviceId}/stats-summary`;
const page = (total: number) => ({ items: [stat], total, limit: 200, offset: 0 });

let network: FakeNetwork;
beforeEach(() => {
  network = signedInAdmin()
    .on('GET', `/api/devices/${deviceId}`, () => json(device))
    .on('GET', `/api/devices/${deviceId}/last-stats-submission`, () => json(stat))
    .on('GET', '/api/devices/workstations', () => json({ items: [], total: 0, limit: 20, offset: 0 }))
    .on('GET', '/api/devices/jobs', () => json({ items: [], total: 0, limit: 20, offset: 0 }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a device's charts", () => {
  it('draw the stats of the page when it holds every one of the period, and ask for no summary', async () => {
    network.on('GET', '/api/devices/stats', () => json(page(1))).install();
    renderApp(`/admin/devices/${deviceId}`, { env: 'test' });
    expect(await screen.findByText(/^CPU usage, 1 stat from .*; latest 16 %\.$/)).toBeInTheDocument();
    expect(screen.queryByText(/are drawn/)).toBeNull();
    expect(network.callsTo('GET', summaryPath)).toHaveLength(0);
  });

  it('draw every stat of a period with more than a page of them, as the server sums them up', async () => {
    const summary: DeviceStatsSummary = {
      from: taken - 86_400_000,
      to: taken,
      bucketMillis: 720_001,
      total: 1440,
      buckets: [
        {
          from: taken - 86_400_000,
          count: 1440,
          values: { cpu: { min: 3, avg: 20, max: 97 }, memory: { min: 60, avg: 61, max: 63 } },
        },
      ],
    };
    network
      .on('GET', '/api/devices/stats', () => json(page(1440)))
      .on('GET', summaryPath, () => json(summary))
      .install();
    renderApp(`/admin/devices/${deviceId}`, { env: 'test' });
    expect(
      await screen.findByText(
        'All 1,440 stats of this period are drawn, in 120 equal parts of it: each line is the mean of each part; on the CPU, memory and disk charts the dashed lines are its highest and lowest value.',
      ),
    ).toBeVisible();
    // The words for screen readers count every stat; "latest" is still the newest stat itself.
    expect(screen.getByText(/^CPU usage, 1440 stats from .*; latest 16 %\.$/)).toBeInTheDocument();
    expect(screen.queryByText(/The newest .* are drawn/)).toBeNull();
    const [call] = network.callsTo('GET', summaryPath);
    expect(Object.fromEntries(call!.url.searchParams)).toMatchObject({ buckets: '120' });
    expect(Number(call!.url.searchParams.get('to')) - Number(call!.url.searchParams.get('from'))).toBe(
      86_400_000,
    );
  });

  it('say the newest page is drawn when the summary cannot be had', async () => {
    network
      .on('GET', '/api/devices/stats', () => json(page(300)))
      .on('GET', summaryPath, () =>
        json({ statusCode: 503, error: 'Service Unavailable', message: 'Down' }, 503),
      )
      .install();
    renderApp(`/admin/devices/${deviceId}`, { env: 'test' });
    expect(await screen.findByText('The newest 1 of 300 stats in this period are drawn.')).toBeVisible();
  });
});
