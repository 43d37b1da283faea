// The IoT devices list and page in Thai: titles, columns, labels and the device's enumerations follow the
// console's language. The API is faked at the network edge.
import { act, cleanup, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { iotDeviceSchema, type IotDevice } from '@careplane/shared/iot/iot.contract';
import { emptyHistory, fakeList } from '@/test/admin-fakes.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json } from '@/test/network.ts';

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

beforeEach(() => {
  resetSession();
  signIn(makeUser({ roles: ['admin'] }));
  fakeNetwork()
    .on('GET', '/api/users/me', () => json(makeUser({ roles: ['admin'] })))
    .on('GET', '/api/users/logs', () => json(emptyHistory))
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
