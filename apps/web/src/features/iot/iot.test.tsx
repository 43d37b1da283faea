// The IoT devices list and page in Thai: titles, columns, labels and the device's enumerations follow the
// console's language; readings are told in words, never as the JSON the device sent. The API is faked at the
// network edge.
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { iotDeviceSchema, type IotDevice, type ReadingsSummary } from '@careplane/shared/iot/iot.contract';
import { fakeList, signedInAdmin } from '@/test/admin-fakes.ts';
import { renderApp } from '@/test/app.tsx';
import { json, type FakeNetwork } from '@/test/network.ts';

const at = '2030-01-01T08:00:00.000Z';
const device: IotDevice = {
  id: '0190f6a2-6d3b-7c8e-9f00-0000000000e1',
  createdAt: at,
  updatedAt: at,
  hardwareIdentifier: 'HW-42',
  deviceIdentifier: null,
  model: 'Oximeter X',
  trustLevel: 'trusted',
  connectionType: 'ble',
  connectionMeta: null,
  supportedDataTypes: ['blood_pressure'],
  allowMultipleDeviceRelationships: false,
  assignedUserId: null,
  createdByDeviceId: null,
};
const empty = { items: [], total: 0, limit: 20, offset: 0 };
const summaryPath = `/api/iot-devices/${device.id}/readings-summary`;
const taken = Date.parse('2030-01-01T07:30:00.000Z');
const record = (id: string, dataType: string, data: Record<string, unknown>) => ({
  id: `0190f6a2-6d3b-7c8e-9f00-00000000d0${id}`,
  createdAt: at,
  timestamp: taken,
  dataType,
  data: { timestamp: taken, ...data },
  iotDeviceId: device.id,
  createdByUserId: null,
});

let network: FakeNetwork;
beforeEach(() => {
  network = signedInAdmin()
    .on('GET', '/api/iot-devices', () => json(fakeList(iotDeviceSchema, [device])))
    .on('GET', `/api/iot-devices/${device.id}`, () => json(device))
    .on('GET', '/api/iot-devices/data', () => json(empty))
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('IoT devices in Thai', () => {
  it('titles the list and its columns in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp('/admin/iot-devices', { env: 'test' });
    expect(await screen.findByRole('heading', { name: 'อุปกรณ์ IoT', level: 1 })).toBeVisible();
    expect((await screen.findAllByText('รหัสฮาร์ดแวร์')).length).toBeGreaterThan(0);
  });

  it('labels the device’s page, its connection and trust in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp(`/admin/iot-devices/${device.id}`, { env: 'test' });
    expect(await screen.findByText('บลูทูธ (BLE)')).toBeVisible();
    expect(screen.getByText('เชื่อถือได้')).toBeVisible();
    expect(screen.getAllByText('ความดันโลหิต').length).toBeGreaterThan(0);
    expect(screen.getByText('ระดับความน่าเชื่อถือ')).toBeVisible();
    expect(screen.getByRole('region', { name: 'ค่าที่วัดได้' })).toBeVisible();
  });
});

describe('Readings in words', () => {
  it('tells the last submission as a care team reads it, without the milliseconds the device sent', async () => {
    network.on('GET', `/api/iot-devices/${device.id}/last-data-submission`, () =>
      json(record('01', 'blood_pressure', { sys: 128, dias: 82 })),
    );
    renderApp(`/admin/iot-devices/${device.id}`, { env: 'test' });
    expect(await screen.findByText('Blood pressure 128/82 mmHg')).toBeVisible();
    expect(screen.queryByText(new RegExp(String(taken)))).toBeNull();
    expect(screen.queryByText(/"sys"/)).toBeNull();
  });

  it('reads its connection details as labelled lines, not as the JSON the device sent', async () => {
    network.on('GET', `/api/iot-devices/${device.id}`, () =>
      json({ ...device, connectionMeta: { firmwareVersion: '1.2.3', pairedWith: null, channels: [1, 6] } }),
    );
    renderApp(`/admin/iot-devices/${device.id}`, { env: 'test' });
    expect(await screen.findByText('Firmware version:')).toBeVisible();
    expect(screen.getByText('1.2.3')).toBeVisible();
    expect(screen.getByText('Paired with:')).toBeVisible();
    expect(screen.getByText('1, 6')).toBeVisible();
    expect(screen.queryByText(/"firmwareVersion"/)).toBeNull();
  });

  it('lists alert readings by the event they report, in Thai too', async () => {
    const alerting = { ...device, supportedDataTypes: ['alert'] };
    network
      .on('GET', `/api/iot-devices/${device.id}`, () => json(alerting))
      .on('GET', '/api/iot-devices/data', () =>
        json({
          ...empty,
          total: 1,
          items: [record('02', 'alert', { id: 'e1', type: 'fall', room: 'kitchen' })],
        }),
      );
    await act(() => i18next.changeLanguage('th'));
    renderApp(`/admin/iot-devices/${device.id}`, { env: 'test' });
    expect(await screen.findByText('ตรวจพบการหกล้ม, Room kitchen')).toBeVisible();
    expect(screen.queryByText(/"type"/)).toBeNull();
  });
});

describe('The readings chart', () => {
  /** The device draws one type; the period's page holds `reading` of `total` readings. */
  const answerChart = (dataType: string, total: number, reading: ReturnType<typeof record>) =>
    network
      .on('GET', `/api/iot-devices/${device.id}`, () => json({ ...device, supportedDataTypes: [dataType] }))
      .on('GET', '/api/iot-devices/data', () => json({ ...empty, total, items: [reading] }));

  it('is titled by the data type and the unit the readings and their alerts speak', async () => {
    answerChart('heart_rate', 1, record('03', 'heart_rate', { rate: 72 }));
    renderApp(`/admin/iot-devices/${device.id}`, { env: 'test' });
    expect(await screen.findByText('Heart rate (/min)')).toBeVisible();
    // One reading is one, not "1 … readings".
    expect(await screen.findByText(/^1 heart rate reading from /)).toBeInTheDocument();
    // Every reading of the period is on the page: nothing is summed up.
    expect(network.callsTo('GET', summaryPath)).toHaveLength(0);
  });

  it('draws every reading of a period with more than a page of them, as means the server sums up', async () => {
    const summary: ReadingsSummary = {
      dataType: 'temperature',
      from: taken - 3_600_000,
      to: taken,
      bucketMillis: 30_001,
      total: 500,
      buckets: [
        { from: taken - 3_600_000, count: 300, values: { value: { min: 36.1, avg: 36.6, max: 37.2 } } },
        { from: taken - 1_800_000, count: 200, values: { value: { min: 36.4, avg: 36.9, max: 38.1 } } },
      ],
    };
    // The page of the newest readings speaks Fahrenheit; the summary is in degrees Celsius.
    answerChart('temperature', 500, record('04', 'temperature', { value: 98.6, unit: 'F' })).on(
      'GET',
      summaryPath,
      () => json(summary),
    );
    renderApp(`/admin/iot-devices/${device.id}`, { env: 'test' });
    expect(
      await screen.findByText(
        'All 500 readings of this period are drawn, in 120 equal parts of it: the solid line is the mean of each part, the dashed lines its highest and lowest reading.',
      ),
    ).toBeVisible();
    expect(screen.getByText('Temperature (°C)')).toBeVisible();
    expect(screen.getByText(/^500 temperature readings from /)).toBeInTheDocument();
    expect(screen.queryByText(/The newest .* are drawn/)).toBeNull();
    const [call] = network.callsTo('GET', summaryPath);
    expect(Object.fromEntries(call!.url.searchParams)).toMatchObject({
      dataType: 'temperature',
      buckets: '120',
    });
  });

  it('says the newest page is drawn when the summary cannot be had', async () => {
    answerChart('heart_rate', 300, record('05', 'heart_rate', { rate: 70 })).on('GET', summaryPath, () =>
      json({ statusCode: 503, error: 'Service Unavailable', message: 'Down' }, 503),
    );
    renderApp(`/admin/iot-devices/${device.id}`, { env: 'test' });
    expect(await screen.findByText('The newest 1 of 300 readings in this period are drawn.')).toBeVisible();
  });
});

describe('The chart’s data type and period in the address', () => {
  const twoTypes = { ...device, supportedDataTypes: ['heart_rate', 'temperature'] };
  const lastDataCall = () => {
    const url = network.callsTo('GET', '/api/iot-devices/data').at(-1)!.url;
    return {
      type: url.searchParams.getAll('filters').find((filter) => filter.startsWith('dataType~')),
      hours: (Number(url.searchParams.get('to')) - Number(url.searchParams.get('from'))) / 3_600_000,
    };
  };

  it('opens on the type and period a link names, and writes a new choice back into it', async () => {
    network.on('GET', `/api/iot-devices/${device.id}`, () => json(twoTypes));
    const { router } = renderApp(`/admin/iot-devices/${device.id}?type=temperature&period=7d`, {
      env: 'test',
    });
    expect(await screen.findByText(/^Temperature \(/)).toBeVisible();
    await waitFor(() => expect(lastDataCall()).toEqual({ type: 'dataType~temperature', hours: 7 * 24 }));
    expect(screen.getByRole('radio', { name: '7 days' })).toBeChecked();

    // The page stays where it is scrolled: the chart is below the fold, under the device's details.
    const scrolled = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    await userEvent.click(screen.getByText('30 days'));
    await waitFor(() => expect(lastDataCall().hours).toBe(30 * 24));
    expect(scrolled).not.toHaveBeenCalled();
    scrolled.mockRestore();
    expect(new URLSearchParams(router.state.location.search).get('period')).toBe('30d');
    expect(new URLSearchParams(router.state.location.search).get('type')).toBe('temperature');
  });

  it('opens on the first type and the last 24 hours for an address that names neither, or nonsense', async () => {
    network.on('GET', `/api/iot-devices/${device.id}`, () => json(twoTypes));
    renderApp(`/admin/iot-devices/${device.id}?type=glucose&period=1y`, { env: 'test' });
    expect(await screen.findByText(/^Heart rate \(/)).toBeVisible();
    await waitFor(() => expect(lastDataCall()).toEqual({ type: 'dataType~heart_rate', hours: 24 }));
  });

  it("opens on the device's first vital sign, not on its battery or its events", async () => {
    const band = { ...device, supportedDataTypes: ['battery', 'alert', 'temperature'] };
    network.on('GET', `/api/iot-devices/${device.id}`, () => json(band));
    const { router } = renderApp(`/admin/iot-devices/${device.id}`, { env: 'test' });
    expect(await screen.findByText(/^Temperature \(/)).toBeVisible();
    await waitFor(() => expect(lastDataCall()).toEqual({ type: 'dataType~temperature', hours: 24 }));
    // The battery is still a choice away, and written into the address when chosen.
    await userEvent.click(screen.getByRole('combobox', { name: 'Data type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Battery' }));
    await waitFor(() => expect(lastDataCall().type).toBe('dataType~battery'));
    expect(new URLSearchParams(router.state.location.search).get('type')).toBe('battery');
  });
});

describe('The connection secret', () => {
  const hint = /Required for a trusted device\. It is never shown again/;
  it('asks a new device for one, with nothing to keep', async () => {
    renderApp('/admin/iot-devices/create', { env: 'test' });
    expect(await screen.findByText(hint)).toBeVisible();
    expect(screen.queryByText(/keep the current one/)).toBeNull();
  });

  it('offers an existing device to keep its own', async () => {
    renderApp(`/admin/iot-devices/edit/${device.id}`, { env: 'test' });
    expect(await screen.findByText(/leave empty to keep the current one/)).toBeVisible();
  });
});

describe('A hardware identifier already in use', () => {
  it('is said on its field after every submit that the server refuses, not only the first', async () => {
    network.on('POST', '/api/iot-devices', () =>
      json(
        {
          statusCode: 409,
          error: 'Conflict',
          message: 'This hardware identifier is already in use.',
          issues: [
            { path: 'body.hardwareIdentifier', message: 'This hardware identifier is already in use.' },
          ],
        },
        409,
      ),
    );
    renderApp('/admin/iot-devices/create', { env: 'test' });
    const field = await screen.findByRole('textbox', { name: /Hardware identifier/ });
    await userEvent.click(field);
    await userEvent.paste('HW-42');
    await userEvent.click(screen.getByRole('textbox', { name: /Model/ }));
    await userEvent.paste('Oximeter X');
    for (const attempt of [1, 2]) {
      await userEvent.click(screen.getByRole('button', { name: 'Create' }));
      await waitFor(() => expect(network.callsTo('POST', '/api/iot-devices')).toHaveLength(attempt));
      await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
      expect(screen.getAllByText('This hardware identifier is already in use.').length).toBeGreaterThan(0);
    }
  });
});
