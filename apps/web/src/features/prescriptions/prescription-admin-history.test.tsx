// The admin's page of a prescription tells its history in the custody's words: what happened (issued, a
// signature asked or denied on the phone), when it was taken on a device that was offline, and the fields an
// entry changed by their labels, without the audit's bookkeeping (idempotency keys, request ids).
import { act, cleanup, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '@careplane/shared/common/formats';
import type { Prescription } from '@careplane/shared/prescriptions/prescriptions.contract';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json } from '@/test/network.ts';
import { actionOutbox } from '@/lib/offline/action-outbox.ts';

const admin = makeUser({ roles: ['admin'] });
const rxId = '0190a0b0-0000-7000-8000-00000000b001';
const prescription: Prescription = {
  id: rxId,
  createdAt: '2026-11-23T09:00:00.000Z',
  updatedAt: '2026-11-23T09:00:00.000Z',
  status: 'waiting',
  issuerId: null,
  issuerReceiptId: null,
  pickupByNurse: false,
  nurseId: null,
  supplierId: null,
  shipperId: null,
  shipperDriverId: null,
  pickupReceiptId: null,
  recipientId: null,
  pickupAddress: null,
  deliveryAddress: null,
  content: [{ name: 'Amoxicillin', strength: '500 mg', quantity: 20, unit: 'capsules' }],
  version: 3,
  createdByUserId: null,
};
const entry = (id: number, at: string, action: string, changes: Record<string, unknown> | null) => ({
  id,
  at,
  action,
  resource: 'prescriptions',
  recordId: rxId,
  actorUserId: null,
  actorSubject: 'system',
  changes,
  ip: null,
});
const history = [
  entry(4, '2026-11-23T11:30:00.000Z', 'accept', {
    status: 'waiting',
    reason: 'Stock checked',
    performedAt: '2026-11-23T11:10:00.000Z',
    idempotencyKey: 'c0ffee00-0000-4000-8000-000000000001',
  }),
  entry(3, '2026-11-23T10:05:00.000Z', 'issue', {
    status: 'issued',
    issuerReceipt: '0190a0b0-0000-7000-8000-00000000e001',
    requestId: '0190a0b0-0000-7000-8000-00000000c001',
  }),
  entry(2, '2026-11-23T10:00:00.000Z', 'issue-requested', {
    requestId: '0190a0b0-0000-7000-8000-00000000c001',
    documentId: '0190a0b0-0000-7000-8000-00000000e001',
    signer: '0190a0b0-0000-7000-8000-00000000d001',
  }),
  entry(1, '2026-11-23T09:00:00.000Z', 'create', { issuer: 'x', supplier: 'y', shipperDriver: null }),
];

let network: ReturnType<typeof fakeNetwork>;
beforeEach(() => {
  resetSession();
  signIn(admin);
  network = fakeNetwork()
    .on('GET', '/api/users/me', () => json(admin))
    .on('GET', '/api/users/logs', () => json({ items: history, total: history.length, limit: 50, offset: 0 }))
    .on('GET', '/api/prescriptions/viewer', () =>
      json({ userId: admin.id, localRoles: [], employerIds: [], employers: [], isAdmin: true }),
    )
    .on('GET', `/api/prescriptions/${rxId}`, () => json(prescription))
    .install();
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await act(() => i18next.changeLanguage('en'));
});

const rowTexts = async () => {
  const table = await screen.findByRole('table', { name: /History|ประวัติ/ });
  const rows = await within(table).findAllByRole('row');
  return rows.slice(1).map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent),
  );
};

describe("a prescription's history on the admin's page", () => {
  it('names events and fields as the custody does, with the time taken offline, and no bookkeeping', async () => {
    renderApp(`/admin/prescriptions/${rxId}`, { env: 'test' });
    expect(await rowTexts()).toEqual([
      [
        `${formatDateTime('2026-11-23T11:10:00.000Z')} on the device (offline), recorded ${formatDateTime('2026-11-23T11:30:00.000Z')}`,
        'system',
        'Accepted',
        'Status, Reason, Time taken on the device',
      ],
      [formatDateTime('2026-11-23T10:05:00.000Z'), 'system', 'Issued', 'Status, Signed prescription'],
      [formatDateTime('2026-11-23T10:00:00.000Z'), 'system', 'Issue: signature asked on the phone', 'Signer'],
      [formatDateTime('2026-11-23T09:00:00.000Z'), 'system', 'Created', 'Issuer, Supplier, Driver'],
    ]);
  });

  it('says the same in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    renderApp(`/admin/prescriptions/${rxId}`, { env: 'test' });
    const rows = await rowTexts();
    expect(rows.map((row) => row.slice(2))).toEqual([
      ['รับเรื่องแล้ว', 'สถานะ, เหตุผล, เวลาที่ทำบนอุปกรณ์'],
      ['ออกใบสั่งยาแล้ว', 'สถานะ, ใบสั่งยาที่ลงนาม'],
      ['ออกใบสั่งยา: ส่งคำขอลงนามไปที่โทรศัพท์แล้ว', 'ผู้ลงนาม'],
      ['สร้างแล้ว', 'ผู้สั่งยา, ร้านยา, พนักงานขับรถ'],
    ]);
  });
});

describe("the admin's custody actions", () => {
  it('give way to an action this device keeps for the prescription, until it is sent', async () => {
    // Kept offline on "waiting": another action taken now would be taken on a status the prescription no longer
    // has once the kept one is sent (decision 093).
    let online = false;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    await actionOutbox.enqueue({
      userId: admin.id,
      prescriptionId: rxId,
      action: 'hold',
      label: 'Hold',
      expectedStatus: 'waiting',
    });
    renderApp(`/admin/prescriptions/${rxId}`, { env: 'test' });
    expect(await screen.findByTestId('kept-action')).toHaveTextContent(
      'Hold — queued, will send when online',
    );
    expect(screen.queryByRole('button', { name: 'Mark ready' })).toBeNull();

    network.on('POST', `/api/prescriptions/${rxId}/hold`, () => json({ ...prescription, status: 'on_hold' }));
    online = true;
    await act(() => actionOutbox.flush(admin.id));
    expect(actionOutbox.entries()).toEqual([]);
    expect(await screen.findByRole('button', { name: 'Mark ready' })).toBeVisible();
    expect(screen.queryByTestId('kept-action')).toBeNull();
  });
});

describe("the admin's Delete", () => {
  it('is offered until the prescription is picked up, not after: the server keeps it (decision 012)', async () => {
    renderApp(`/admin/prescriptions/${rxId}`, { env: 'test' });
    expect(await screen.findByRole('button', { name: 'Delete' })).toBeVisible();
    cleanup();
    network.on('GET', `/api/prescriptions/${rxId}`, () => json({ ...prescription, status: 'delivered' }));
    renderApp(`/admin/prescriptions/${rxId}`, { env: 'test' });
    expect(await screen.findByRole('link', { name: 'Edit' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});
