// The pharmacy and prescriptions areas with the API faked at the network edge: the queue of a tab, the
// actions this user may take (from the shared table), the phone approval shown on its button, the list
// refreshed after an action, and the detail with history.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VerificationReport } from '@careplane/shared/documents/documents.contract';
import { formatDateTime } from '@careplane/shared/common/formats';
import type {
  Prescription,
  PrescriptionViewerAnswer,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { ApiError } from '@/lib/api-client.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';
import { onScreen } from '@/test/screen.ts';
import { refusalText } from './action-button.tsx';
import { historyEventText, historyTimeText } from '../prescription-history.ts';

const pharmacist = makeUser({ localRoles: ['pharmacist'] });
const courier = makeUser({ id: '8b3c7a52-3f0e-4b59-9a77-0b1f1f5f2a11', localRoles: ['courier'] });
const pharmacyId = '0190a0b0-0000-7000-8000-00000000a001';
const courierCoId = '0190a0b0-0000-7000-8000-00000000a002';
const rxId = '0190a0b0-0000-7000-8000-00000000b001';
const requestId = '0190a0b0-0000-7000-8000-00000000c001';

const prescriptionOf = (patch: Partial<Prescription> = {}): Prescription => ({
  id: rxId,
  createdAt: '2026-11-23T09:00:00.000Z',
  updatedAt: '2026-11-23T09:00:00.000Z',
  status: 'waiting',
  issuerId: '0190a0b0-0000-7000-8000-00000000d001',
  issuerReceiptId: '0190a0b0-0000-7000-8000-00000000e001',
  pickupByNurse: false,
  nurseId: null,
  supplierId: pharmacyId,
  shipperId: courierCoId,
  shipperDriverId: null,
  pickupReceiptId: null,
  recipientId: '0190a0b0-0000-7000-8000-00000000d002',
  pickupAddress: { city: 'Chiang Mai', street: 'Tha Phae Rd' },
  deliveryAddress: { city: 'Lamphun', street: 'Nimman Rd' },
  content: [{ name: 'Amoxicillin', strength: '500 mg', quantity: 20, unit: 'capsules' }],
  version: 2,
  createdByUserId: null,
  recipient: { id: '0190a0b0-0000-7000-8000-00000000d002', firstName: 'Pia', lastName: 'Patient' },
  issuer: { id: '0190a0b0-0000-7000-8000-00000000d001', firstName: 'Dora', lastName: 'Doctor' },
  supplier: { id: pharmacyId, title: 'Riverside Pharmacy' },
  shipper: { id: courierCoId, title: 'Swift Couriers' },
  ...patch,
});

const viewerOf = (user: typeof pharmacist, employer: { id: string; title: string; type: string }) =>
  ({
    userId: user.id,
    localRoles: user.localRoles,
    employerIds: [employer.id],
    employers: [employer],
    isAdmin: false,
  }) satisfies PrescriptionViewerAnswer;

const page = (items: Prescription[]) => json({ items, total: items.length, limit: 100, offset: 0 });

let network: FakeNetwork;
beforeEach(() => {
  resetSession();
  network = fakeNetwork().install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the pharmacy area', () => {
  it('lists the first pharmacy employer’s waiting prescriptions with the pharmacist’s actions; an action refreshes the list', async () => {
    let current = prescriptionOf();
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(pharmacist, { id: pharmacyId, title: 'Riverside Pharmacy', type: 'pharmacy' })),
      )
      .on('GET', '/api/prescriptions', () => page(current.status === 'waiting' ? [current] : []))
      .on('POST', `/api/prescriptions/${rxId}/mark-ready`, () => {
        current = prescriptionOf({ status: 'ready' });
        return json(current);
      });
    signIn(pharmacist);
    renderApp('/pharmacy');
    const list = await screen.findByRole('list', { name: 'Waiting prescriptions' });
    const card = within(list).getByRole('listitem', { name: /Amoxicillin 500 mg/ });
    // waiting: hold and mark ready, on the card; a pharmacist of the supplier may take both.
    expect(
      within(card)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Hold', 'Mark ready', 'Details and history']);
    expect(within(card).getByText('Nimman Rd, Lamphun')).toBeVisible();
    const calls = network.callsTo('GET', '/api/prescriptions');
    expect(calls.map((call) => call.url.searchParams.getAll('filters'))).toContainEqual([
      'status~issued,waiting,on_hold,returned',
      `supplier.id~${pharmacyId}`,
    ]);
    // The menu counts what each tab holds.
    const menu = screen.getByRole('navigation', { name: 'Pharmacy menu' });
    await waitFor(() => expect(within(menu).getByRole('link', { name: 'Waiting 1' })).toBeVisible());
    // A double tap: the second comes before the button is drawn busy, and sends nothing.
    const markReady = within(card).getByRole('button', { name: 'Mark ready' });
    fireEvent.click(markReady);
    fireEvent.click(markReady);
    expect(await screen.findByText('No prescriptions here.')).toBeVisible();
    expect(await screen.findByText('Marked ready: Amoxicillin 500 mg', { exact: false })).toBeVisible();
    expect(network.callsTo('POST', `/api/prescriptions/${rxId}/mark-ready`)).toHaveLength(1);
  });

  it('asks why before a hold and sends the reason with it; said nothing, the hold goes without one', async () => {
    const holds: (string | null)[] = [];
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(pharmacist, { id: pharmacyId, title: 'Riverside Pharmacy', type: 'pharmacy' })),
      )
      .on('GET', '/api/prescriptions', () => page([prescriptionOf()]))
      .on('POST', `/api/prescriptions/${rxId}/hold`, (request) => {
        holds.push(request.body);
        return json(prescriptionOf({ status: 'on_hold' }));
      });
    signIn(pharmacist);
    renderApp('/pharmacy');
    const card = await screen.findByRole('listitem', { name: /Amoxicillin 500 mg/ });
    const hold = async (reason: string) => {
      fireEvent.click(within(card).getByRole('button', { name: 'Hold' }));
      const dialog = await screen.findByRole('dialog', { name: 'Put it on hold?' });
      expect(dialog).toHaveTextContent(/Amoxicillin 500 mg/);
      fireEvent.change(within(dialog).getByRole('textbox', { name: 'Why?' }), { target: { value: reason } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Hold' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    };
    // Not yet sends nothing.
    fireEvent.click(within(card).getByRole('button', { name: 'Hold' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Put it on hold?' })).getByRole('button', {
        name: 'Not yet',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(holds).toEqual([]);

    await hold('Waiting for the doctor to confirm the dose');
    await waitFor(() => expect(holds).toHaveLength(1));
    await hold('   ');
    await waitFor(() => expect(holds).toHaveLength(2));
    // Each says the status it was taken on: it applies only while the prescription is still there (decision 093).
    expect(holds.map((body) => (body ? (JSON.parse(body) as unknown) : null))).toEqual([
      { reason: 'Waiting for the doctor to confirm the dose', expectedStatus: 'waiting' },
      { expectedStatus: 'waiting' },
    ]);
  });

  it('keeps a notice when another device moved the prescription first, and shows where it stands now', async () => {
    let current = prescriptionOf();
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(pharmacist, { id: pharmacyId, title: 'Riverside Pharmacy', type: 'pharmacy' })),
      )
      .on('GET', '/api/prescriptions', () => page([current]))
      .on('POST', `/api/prescriptions/${rxId}/mark-ready`, () => {
        // Another pharmacist's device put it on hold after this list was read.
        current = prescriptionOf({ status: 'on_hold' });
        return json(
          {
            statusCode: 409,
            error: 'Conflict',
            message: 'The prescription is on_hold: mark-ready needs issued or waiting',
            issues: [{ path: 'status', message: 'on_hold' }],
          },
          409,
        );
      });
    signIn(pharmacist);
    renderApp('/pharmacy');
    const list = await screen.findByRole('list', { name: 'Waiting prescriptions' });
    const card = within(list).getByRole('listitem', { name: /Amoxicillin 500 mg/ });
    fireEvent.click(within(card).getByRole('button', { name: 'Mark ready' }));
    // The list is read again: the card offers what its status allows now, and Mark ready with its error is gone.
    await waitFor(() =>
      expect(
        within(within(list).getByRole('listitem', { name: /Amoxicillin 500 mg/ }))
          .getAllByRole('button')
          .map((button) => button.textContent),
      ).toEqual(['Resume', 'Details and history']),
    );
    // The notice stays, in words, without the API's codes.
    const notice = await screen.findByText('Not done: Mark ready, Amoxicillin 500 mg', { exact: false });
    expect(notice).toBeVisible();
    expect(
      screen.getByText('It was changed meanwhile and is now on hold. The list shows where it stands.'),
    ).toBeVisible();
    expect(screen.queryByText(/on_hold|mark-ready/)).toBeNull();
  });

  it('words a refusal in Thai from the status the server names, the same value in every language', async () => {
    await act(() => i18next.changeLanguage('th'));
    const body = {
      statusCode: 409,
      error: 'Conflict',
      message: 'ใบสั่งยานี้อยู่ในสถานะ "พักไว้" (on_hold): ...',
      issues: [{ path: 'status', message: 'on_hold' }],
    };
    expect(refusalText(new ApiError(409, body.message, body))).toBe(
      'ใบสั่งยานี้ถูกเปลี่ยนไประหว่างนั้น ตอนนี้อยู่ในสถานะ "พักไว้" ดูสถานะล่าสุดได้ในรายการ',
    );
    // Any other refusal reads as the server wrote it.
    expect(refusalText(new ApiError(403, 'ไม่มีสิทธิ์ทำรายการนี้'))).toBe('ไม่มีสิทธิ์ทำรายการนี้');
  });

  it('answers an address whose id is not one with the page that could not be found, asking the server nothing', async () => {
    network.on('GET', '/api/prescriptions/viewer', () =>
      json(viewerOf(pharmacist, { id: pharmacyId, title: 'Riverside Pharmacy', type: 'pharmacy' })),
    );
    signIn(pharmacist);
    renderApp('/pharmacy/accepted');
    expect(await screen.findByText('This page could not be found')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the home page' })).toBeVisible();
    expect(network.callsTo('GET', '/api/prescriptions')).toEqual([]);
  });

  it('shows the detail with addresses, parties and history', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(pharmacist, { id: pharmacyId, title: 'Riverside Pharmacy', type: 'pharmacy' })),
      )
      .on('GET', '/api/prescriptions', () => page([prescriptionOf()]))
      .on('GET', `/api/prescriptions/${rxId}/history`, () =>
        json({
          items: [
            {
              at: '2026-11-23T10:30:00.000Z',
              action: 'hold',
              actor: 'Phil Test',
              changes: { status: 'on_hold', reason: 'Waiting for the doctor' },
            },
            {
              at: '2026-11-23T10:00:00.000Z',
              action: 'accept',
              actor: 'Phil Test',
              changes: { status: 'waiting' },
            },
            { at: '2026-11-23T09:30:00.000Z', action: 'issue', actor: 'Dora Doctor', changes: null },
            {
              at: '2026-11-23T09:29:00.000Z',
              action: 'issue-requested',
              actor: 'Dora Doctor',
              changes: { requestId: 'r1' },
            },
            { at: '2026-11-23T09:00:00.000Z', action: 'create', actor: 'Dora Doctor', changes: null },
          ],
        }),
      );
    signIn(pharmacist);
    renderApp(`/pharmacy/${pharmacyId}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Details and history' }));
    const detail = await screen.findByRole('region', { name: 'Prescription detail' });
    expect(within(detail).getByText('Tha Phae Rd, Chiang Mai', { exact: false })).toBeVisible();
    expect(within(detail).getByText('Dora Doctor')).toBeVisible();
    expect(within(detail).getByRole('button', { name: 'Signed prescription' })).toBeVisible();
    const history = within(detail).getByRole('list', { name: 'History' });
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(5));
    // Every event in words, none as its recorded key.
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.textContent?.split(' · ')[1]),
    ).toEqual(['Put on hold', 'Accepted', 'Issued', 'Issue: signature asked on the phone', 'Created']);
    // A hold says why, when the pharmacist said.
    expect(within(history).getAllByRole('listitem')[0]!.textContent).toMatch(
      /Put on hold · Phil Test · “Waiting for the doctor”$/,
    );
    expect(within(history).getAllByRole('listitem')[1]!.textContent).toMatch(/Accepted · Phil Test$/);
    expect(within(detail).queryByText('No changes recorded.')).toBeNull();
  });

  it('says so when nothing is recorded of a prescription, rather than leaving its history blank', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(pharmacist, { id: pharmacyId, title: 'Riverside Pharmacy', type: 'pharmacy' })),
      )
      .on('GET', '/api/prescriptions', () => page([prescriptionOf()]))
      .on('GET', `/api/prescriptions/${rxId}/history`, () => json({ items: [] }));
    signIn(pharmacist);
    renderApp(`/pharmacy/${pharmacyId}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Details and history' }));
    const detail = await screen.findByRole('region', { name: 'Prescription detail' });
    expect(await within(detail).findByText('No changes recorded.')).toBeVisible();
  });
});

describe("a prescription's items", () => {
  const inhaler = {
    name: 'Salbutamol',
    strength: '100 mcg',
    form: 'inhaler',
    quantity: 1,
    unit: 'inhaler',
    dosage: 'Two puffs at breathlessness',
  };

  async function openDetail() {
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(pharmacist, { id: pharmacyId, title: 'Riverside Pharmacy', type: 'pharmacy' })),
      )
      .on('GET', '/api/prescriptions', () => page([prescriptionOf({ content: [inhaler] })]))
      .on('GET', `/api/prescriptions/${rxId}/history`, () => json({ items: [] }));
    signIn(pharmacist);
    renderApp(`/pharmacy/${pharmacyId}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Details and history' }));
    return screen.findByRole('region', { name: 'Prescription detail' });
  }

  it('are a table of item, quantity and dosage on a wider screen', async () => {
    onScreen(false);
    const detail = await openDetail();
    const items = within(detail).getByRole('table', { name: 'Items' });
    expect(
      within(items)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Item', 'Quantity', 'Dosage']);
    expect(
      within(items)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Salbutamol 100 mcg inhaler', '1 inhaler', 'Two puffs at breathlessness']);
  });

  it('stack on a phone, each across the card, so a long dosage is not squeezed into a third of it', async () => {
    onScreen(true);
    const detail = await openDetail();
    expect(within(detail).queryByRole('table', { name: 'Items' })).toBeNull();
    const items = within(detail).getByRole('list', { name: 'Items' });
    const [item] = within(items).getAllByRole('listitem');
    expect([...item!.children].map((line) => line.textContent)).toEqual([
      'Salbutamol 100 mcg inhaler',
      'Quantity: 1 inhaler',
      'Dosage: Two puffs at breathlessness',
    ]);
  });

  afterEach(() => vi.restoreAllMocks());
});

describe("a provider's id that is not the user's", () => {
  const otherPharmacy = '0190a0b0-0000-7000-8000-00000000a0ff';

  it('tells a pharmacist the pharmacy is not theirs, asks for none of its lists, and leads to their own', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(pharmacist, { id: pharmacyId, title: 'Riverside Pharmacy', type: 'pharmacy' })),
      )
      .on('GET', '/api/prescriptions', () => page([prescriptionOf()]));
    signIn(pharmacist);
    renderApp(`/pharmacy/ready/${otherPharmacy}`);
    expect(
      await screen.findByText('You do not work for this pharmacy, so its prescriptions are not shown.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open your own pharmacy' })).toHaveAttribute('href', '/pharmacy');
    expect(network.callsTo('GET', '/api/prescriptions')).toHaveLength(0);
  });

  it("tells a courier the same of another courier company's list, in Thai", async () => {
    network.on('GET', '/api/prescriptions/viewer', () =>
      json(viewerOf(courier, { id: courierCoId, title: 'Swift Couriers', type: 'courier' })),
    );
    await act(() => i18next.changeLanguage('th'));
    signIn(courier);
    renderApp(`/prescriptions/${pharmacyId}`);
    expect(await screen.findByText('คุณไม่ได้สังกัดผู้ให้บริการรายนี้ จึงไม่แสดงใบสั่งยาของผู้ให้บริการรายนี้')).toBeVisible();
    expect(screen.getByRole('link', { name: 'เปิดรายการของคุณ' })).toHaveAttribute('href', '/prescriptions');
    expect(network.callsTo('GET', '/api/prescriptions')).toHaveLength(0);
  });

  it("lets an admin open any pharmacy's queue", async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json({ ...viewerOf(pharmacist, { id: pharmacyId, title: 'x', type: 'courier' }), isAdmin: true }),
      )
      .on('GET', '/api/prescriptions', () => page([prescriptionOf({ supplierId: otherPharmacy })]));
    signIn(pharmacist);
    renderApp(`/pharmacy/${otherPharmacy}`);
    const list = await screen.findByRole('list', { name: 'Waiting prescriptions' });
    expect(within(list).getByRole('listitem', { name: /Amoxicillin 500 mg/ })).toBeVisible();
    const searches = network.callsTo('GET', '/api/prescriptions').map((call) => call.url.search);
    expect(searches.length).toBeGreaterThan(0);
    for (const search of searches)
      expect(decodeURIComponent(search)).toContain(`supplier.id~${otherPharmacy}`);
  });
});

describe('the prescriptions area', () => {
  const failure = 'The prescription is picked_up: pickup needs ready';

  /** The server's answer to a pickup: the courier's phone is asked, with the code to compare. */
  const pickupStarted = () =>
    json(
      {
        action: 'pickup',
        requestId,
        signerUserId: courier.id,
        signerName: 'Cole Courier',
        bindingMessage: 'AC 27',
        expiresIn: 120,
        interval: 1,
      },
      202,
    );

  /**
   * A ready prescription the courier picks up; the phone is pending at the first poll. At the next it is
   * approved, or (`failed`) another courier's pickup was completed first and the server ended this one with it.
   */
  function pickupSettledOnSecondPoll(outcome: 'signed' | 'failed' = 'signed') {
    let current = prescriptionOf({ status: 'ready' });
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(courier, { id: courierCoId, title: 'Swift Couriers', type: 'courier' })),
      )
      .on('GET', '/api/prescriptions', () => page(current.status === 'ready' ? [current] : []))
      .on('POST', `/api/prescriptions/${rxId}/pickup`, pickupStarted)
      .sequence('GET', `/api/prescriptions/${rxId}/signing/${requestId}`, [
        () => json({ action: 'pickup', requestId, status: 'pending', expiresIn: 119 }),
        () => {
          if (outcome === 'failed') {
            current = prescriptionOf({ status: 'picked_up' });
            return json({
              action: 'pickup',
              requestId,
              status: 'failed',
              message: failure,
              prescriptionStatus: 'picked_up',
            });
          }
          current = prescriptionOf({ status: 'picked_up', shipperDriverId: courier.id });
          return json({ action: 'pickup', requestId, status: 'signed', prescription: current });
        },
      ]);
  }

  it('shows the phone approval on the Pick up button until the phone signs, then refreshes', async () => {
    pickupSettledOnSecondPoll();
    signIn(courier);
    renderApp('/prescriptions');
    const pickup = await screen.findByRole('button', { name: 'Pick up' });
    fireEvent.click(pickup);
    const waiting = await screen.findByTestId('signing-pickup');
    expect(waiting.textContent).toContain('code AC 27');
    expect(await screen.findByText('No prescriptions here.', {}, { timeout: 5_000 })).toBeVisible();
  });

  it('takes back its "not done" when a tap whose answer was lost turns out to have asked the phone', async () => {
    pickupSettledOnSecondPoll();
    // The first tap reached the server (which asked the phone), but its answer never came back.
    let taps = 0;
    network.on('POST', `/api/prescriptions/${rxId}/pickup`, () => {
      taps += 1;
      if (taps === 1) throw new TypeError('Failed to fetch');
      return pickupStarted();
    });
    signIn(courier);
    renderApp('/prescriptions');
    fireEvent.click(await screen.findByRole('button', { name: 'Pick up' }));
    const refused = await screen.findByText(/^Not done: Pick up/);
    expect(refused).toBeVisible();
    // Tapped again: the server follows the same phone request, and the notice no longer says it failed.
    fireEvent.click(await screen.findByRole('button', { name: 'Pick up' }));
    expect((await screen.findByTestId('signing-pickup')).textContent).toContain('code AC 27');
    await waitFor(() => expect(screen.queryByText(/^Not done: Pick up/)).toBeNull());
    expect(taps).toBe(2);
  });

  it('says the pickup went through even when the button that asked is gone by the time the phone approves', async () => {
    pickupSettledOnSecondPoll();
    signIn(courier);
    renderApp('/prescriptions');
    fireEvent.click(await screen.findByRole('button', { name: 'Pick up' }));
    await screen.findByTestId('signing-pickup');
    // The driver opens another tab while the phone decides (a queue refresh that moves the card does the same).
    fireEvent.click(screen.getByRole('link', { name: /Picked-up/ }));
    await waitFor(() => expect(screen.queryByTestId('signing-pickup')).toBeNull());
    expect(
      await screen.findByText('Picked up: Amoxicillin 500 mg × 20 capsules', {}, { timeout: 5_000 }),
    ).toBeVisible();
  });

  it('says why a pickup did not happen when another courier was faster, though its card is gone', async () => {
    pickupSettledOnSecondPoll('failed');
    signIn(courier);
    renderApp('/prescriptions');
    fireEvent.click(await screen.findByRole('button', { name: 'Pick up' }));
    await screen.findByTestId('signing-pickup');
    fireEvent.click(screen.getByRole('link', { name: /Picked-up/ }));
    await waitFor(() => expect(screen.queryByTestId('signing-pickup')).toBeNull());
    expect(
      await screen.findByText('Not done: Pick up, Amoxicillin 500 mg × 20 capsules', {}, { timeout: 5_000 }),
    ).toBeVisible();
    // In words, as any action refused because the prescription moved: not the server's codes.
    expect(
      screen.getByText('It was changed meanwhile and is now picked up. The list shows where it stands.'),
    ).toBeVisible();
    expect(screen.queryByText(failure)).toBeNull();
  });

  it('leaves the prescription in place when the phone denies', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(courier, { id: courierCoId, title: 'Swift Couriers', type: 'courier' })),
      )
      .on('GET', '/api/prescriptions', () => page([prescriptionOf({ status: 'ready' })]))
      .on('POST', `/api/prescriptions/${rxId}/pickup`, pickupStarted)
      .on('GET', `/api/prescriptions/${rxId}/signing/${requestId}`, () =>
        json({ action: 'pickup', requestId, status: 'denied' }),
      );
    signIn(courier);
    renderApp('/prescriptions');
    fireEvent.click(await screen.findByRole('button', { name: 'Pick up' }));
    expect(await screen.findByRole('status')).toHaveTextContent('denied on the phone');
    expect(screen.getByRole('button', { name: 'Pick up' })).toBeVisible();
  });

  it('gives the driver what the road needs: where to pick up and deliver, map links, the recipient to call', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(courier, { id: courierCoId, title: 'Swift Couriers', type: 'courier' })),
      )
      .on('GET', '/api/prescriptions', () =>
        page([
          prescriptionOf({
            status: 'ready',
            updatedAt: new Date(Date.now() - 125 * 60_000).toISOString(),
            deliveryAddress: {
              street: 'Nimman Rd',
              houseNumber: '12/3',
              city: 'Lamphun',
              geo: { lat: 18.58, lng: 99.01 },
            },
            recipient: {
              id: '0190a0b0-0000-7000-8000-00000000d002',
              firstName: 'Pia',
              lastName: 'Patient',
              phoneNumber: '+66 81 234 5678',
            },
          }),
        ]),
      );
    signIn(courier);
    renderApp('/prescriptions');
    const card = await screen.findByRole('listitem', { name: /Amoxicillin 500 mg/ });
    expect(within(card).getByText('Tha Phae Rd, Chiang Mai')).toBeVisible();
    expect(within(card).getByText('Nimman Rd 12/3, Lamphun')).toBeVisible();
    expect(within(card).getByRole('link', { name: 'Call Pia Patient: +66 81 234 5678' })).toHaveAttribute(
      'href',
      'tel:+66812345678',
    );
    expect(within(card).getByRole('link', { name: 'Open map: Nimman Rd 12/3, Lamphun' })).toHaveAttribute(
      'href',
      'https://www.google.com/maps/search/?api=1&query=18.58%2C99.01',
    );
    expect(within(card).getByRole('link', { name: 'Open map: Tha Phae Rd, Chiang Mai' })).toHaveAttribute(
      'href',
      expect.stringContaining('query=Tha%20Phae%20Rd%2C%20Chiang%20Mai'),
    );
    expect(within(card).getByText('Ready for 2 h 5 min')).toBeVisible();
  });

  it('offers no action to a courier of another company', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(
          viewerOf(courier, { id: '0190a0b0-0000-7000-8000-00000000a0ff', title: 'Other', type: 'courier' }),
        ),
      )
      .on('GET', '/api/prescriptions', () => page([prescriptionOf({ status: 'ready' })]));
    signIn(courier);
    renderApp('/prescriptions');
    expect(await screen.findByText('No prescriptions here.')).toBeVisible();
  });
});

describe('doctors and patients in the prescriptions area', () => {
  const doctor = makeUser({ id: '0190a0b0-0000-7000-8000-00000000d001', localRoles: ['doctor'] });
  const patient = makeUser({ id: '0190a0b0-0000-7000-8000-00000000d002', localRoles: ['patient'] });
  const noEmployer = (user: typeof doctor) =>
    ({
      userId: user.id,
      localRoles: user.localRoles,
      employerIds: [],
      employers: [],
      isAdmin: false,
    }) satisfies PrescriptionViewerAnswer;

  it('shows a doctor the prescriptions they wrote that wait to be issued, with Issue, and a Written tab', async () => {
    const written = prescriptionOf({ status: 'new', issuerReceiptId: null });
    network
      .on('GET', '/api/prescriptions/viewer', () => json(noEmployer(doctor)))
      .on('GET', '/api/prescriptions', (call) =>
        page(call.url.searchParams.getAll('filters').includes('status~new') ? [written] : []),
      );
    signIn(doctor);
    renderApp('/prescriptions');
    const list = await screen.findByRole('list', { name: 'Waiting prescriptions' });
    const card = within(list).getByRole('listitem', { name: /Amoxicillin 500 mg/ });
    expect(within(card).getByRole('button', { name: 'Issue' })).toBeVisible();
    const filters = network
      .callsTo('GET', '/api/prescriptions')
      .map((call) => call.url.searchParams.getAll('filters'));
    expect(filters).toContainEqual(['status~new', `issuer.id~${doctor.id}`]);
    const menu = screen.getByRole('navigation', { name: 'Prescriptions menu' });
    expect(within(menu).getByRole('link', { name: /^Written/ })).toHaveAttribute(
      'href',
      '/prescriptions/written',
    );
    expect(within(menu).queryByRole('link', { name: /^Mine/ })).toBeNull();
  });

  it('lists everything a doctor wrote at /prescriptions/written, whatever its status', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () => json(noEmployer(doctor)))
      .on('GET', '/api/prescriptions', () =>
        page([prescriptionOf({ status: 'delivered' }), prescriptionOf({ id: requestId, status: 'new' })]),
      );
    signIn(doctor);
    renderApp('/prescriptions/written');
    const list = await screen.findByRole('list', { name: 'Prescriptions you wrote' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('Delivered')).toBeVisible();
    expect(within(list).getAllByRole('button', { name: 'Issue' })).toHaveLength(1);
    expect(
      network.callsTo('GET', '/api/prescriptions').map((call) => call.url.searchParams.getAll('filters')),
    ).toContainEqual([`issuer.id~${doctor.id}`]);
  });

  it('shows a patient their own prescriptions read-only, with who prescribed them', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () => json(noEmployer(patient)))
      .on('GET', '/api/prescriptions', () =>
        page([
          prescriptionOf({ status: 'ready' }),
          prescriptionOf({
            id: '0190a0b0-0000-7000-8000-00000000e0d1',
            status: 'delivered',
            updatedAt: new Date(Date.now() - 3 * 60_000).toISOString(),
            content: [{ name: 'Omeprazole', strength: '20 mg', quantity: 28, unit: 'capsules' }],
          }),
        ]),
      );
    signIn(patient);
    renderApp('/prescriptions/mine');
    const list = await screen.findByRole('list', { name: 'Your prescriptions' });
    const card = within(list).getByRole('listitem', { name: /Amoxicillin 500 mg/ });
    expect(within(card).getByText('Dora Doctor')).toBeVisible();
    // A status that lasts says for how long; one that ended the road says when.
    expect(within(card).getByText(/^Ready for /)).toBeVisible();
    const delivered = within(list).getByRole('listitem', { name: /Omeprazole 20 mg/ });
    expect(within(delivered).getByText('Delivered 3 min ago')).toBeVisible();
    expect(
      within(card)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Details and history']);
    expect(
      network.callsTo('GET', '/api/prescriptions').map((call) => call.url.searchParams.getAll('filters')),
    ).toContainEqual([`recipient.id~${patient.id}`]);
    const menu = screen.getByRole('navigation', { name: 'Prescriptions menu' });
    expect(within(menu).getByRole('link', { name: /^Mine/ })).toHaveAttribute('href', '/prescriptions/mine');
  });

  it('tells a patient why Waiting stays empty for them, and leads to their own prescriptions', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () => json(noEmployer(patient)))
      .on('GET', '/api/prescriptions', () => page([]));
    signIn(patient);
    renderApp('/prescriptions');
    expect(
      await screen.findByText(
        'This list holds the prescriptions that nurses and couriers pick up and deliver: you carry none.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'See your prescriptions and where they are' })).toHaveAttribute(
      'href',
      '/prescriptions/mine',
    );
    expect(screen.queryByText('No prescriptions here.')).toBeNull();
  });
});

describe('the page a printed prescription’s QR code opens', () => {
  const report: VerificationReport = {
    fileSha256: 'a'.repeat(64),
    size: 2048,
    fileKnownToPlatform: true,
    verdict: { status: 'authentic', summary: 'Signed by Dora Doctor.', changedAfter: null },
    allowedChanges: {
      level: 2,
      certifiedBy: null,
      description: 'form filling and signing (no certification signature: the default)',
    },
    signatures: [
      {
        index: 1,
        fieldName: 'Signature1',
        signer: {
          commonName: 'Dora Doctor',
          username: 'dora@careplane.test',
          email: null,
          serialNumber: '01',
          fingerprint: 'b'.repeat(64),
        },
        signingTime: '2026-11-23T09:00:00.000Z',
        intact: true,
        supported: true,
        coversWholeFile: true,
        laterRevisionAdded: false,
        covers: { revision: 1, revisions: 1, bytes: 2048 },
        certification: null,
        changesAfter: [],
        changedAfterSigning: false,
        chainsToPlatformCa: true,
        signerWithdrawn: false,
        knownToPlatform: true,
        revisionSha256: 'a'.repeat(64),
        problems: [],
      },
    ],
  };

  it('shows the verification of the prescription’s signed receipts, without sign-in', async () => {
    network.on('GET', `/api/prescriptions/${rxId}/verification`, () =>
      json({ receipts: [{ receipt: 'issuer', report }] }),
    );
    renderApp(`/verify?prescription=${rxId}`);
    const receipts = await screen.findByRole('region', { name: "The prescription's receipts" });
    expect(
      within(receipts).getByRole('heading', { name: 'The prescription, signed by its prescriber' }),
    ).toBeVisible();
    expect(within(receipts).getAllByText(/Dora Doctor/).length).toBeGreaterThan(0);
    expect(within(receipts).getByRole('link', { name: 'the receipt as it was signed' })).toHaveAttribute(
      'href',
      `http://careplane.test/api/prescriptions/${rxId}/verification/issuer`,
    );
    const call = network.callsTo('GET', `/api/prescriptions/${rxId}/verification`)[0]!;
    expect(call.headers.authorization).toBeUndefined();
  });

  it('says so when the code names no signed prescription, and still offers to check a file', async () => {
    network.on('GET', `/api/prescriptions/${rxId}/verification`, () =>
      json(
        { statusCode: 404, error: 'Not Found', message: 'Signed receipt of this prescription not found' },
        404,
      ),
    );
    renderApp(`/verify?prescription=${rxId}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('No signed prescription with this code');
    expect(screen.getByText('Drop a PDF here, or click to choose one')).toBeVisible();
  });

  it('asks a phone to tap for a file, where there is nothing to drop from', async () => {
    onScreen(true, { touch: true });
    network.on('GET', `/api/prescriptions/${rxId}/verification`, () =>
      json({ statusCode: 404, error: 'Not Found', message: 'Not found' }, 404),
    );
    renderApp(`/verify?prescription=${rxId}`);
    expect(await screen.findByText('Tap to choose a PDF')).toBeVisible();
    expect(screen.queryByText('Drop a PDF here, or click to choose one')).toBeNull();
    vi.restoreAllMocks();
  });
});

describe('in Thai', () => {
  const withHistory = (network: FakeNetwork) =>
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json(viewerOf(pharmacist, { id: pharmacyId, title: 'Riverside Pharmacy', type: 'pharmacy' })),
      )
      .on('GET', '/api/prescriptions', () => page([prescriptionOf()]))
      .on('GET', `/api/prescriptions/${rxId}/history`, () =>
        json({
          items: [{ at: '2026-11-23T10:00:00.000Z', action: 'accept', actor: 'Phil Test', changes: null }],
        }),
      );

  it('shows the queue, its menu, the status and the actions in Thai, and dates in the Buddhist era', async () => {
    withHistory(network);
    await act(() => i18next.changeLanguage('th'));
    signIn(pharmacist);
    renderApp(`/pharmacy/${pharmacyId}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'ใบสั่งยาที่รอดำเนินการ' })).toBeVisible();
    const menu = screen.getByRole('navigation', { name: 'เมนูร้านยา' });
    expect(within(menu).getByRole('link', { name: /รอดำเนินการ/ })).toBeVisible();
    expect(within(menu).getByRole('button', { name: 'ออกจากระบบ' })).toBeVisible();
    const list = await screen.findByRole('list', { name: 'ใบสั่งยาที่รอดำเนินการ' });
    const card = within(list).getByRole('listitem', { name: /Amoxicillin 500 mg/ });
    expect(within(card).getByText('รอจัดยา')).toBeVisible();
    expect(
      within(card)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['พักไว้', 'จัดยาเสร็จ', 'รายละเอียดและประวัติ']);
    fireEvent.click(within(card).getByRole('button', { name: 'รายละเอียดและประวัติ' }));
    const history = await screen.findByRole('list', { name: 'ประวัติ' });
    await waitFor(() =>
      expect(within(history).getByRole('listitem').textContent).toBe(
        '23.11.2569 10:00 GMT+00:00 · รับเรื่องแล้ว · Phil Test',
      ),
    );
    expect(document.documentElement.lang).toBe('th');
  });

  it('names every signing outcome of both phone-signed actions, and keeps an event it has no words for', async () => {
    await act(() => i18next.changeLanguage('th'));
    const th = i18next.getFixedT('th', 'prescriptions');
    const en = i18next.getFixedT('en', 'prescriptions');
    expect(historyEventText('pickup-expired', th)).toBe('รับยา: โทรศัพท์ไม่ตอบรับภายในเวลาที่กำหนด');
    expect(historyEventText('update', th)).toBe('แก้ไขแล้ว');
    expect(
      ['issue-requested', 'issue-denied', 'pickup-failed', 'pickup-expired'].map((action) =>
        historyEventText(action, en),
      ),
    ).toEqual([
      'Issue: signature asked on the phone',
      'Issue: signature denied on the phone',
      'Pick up: the signature could not be completed',
      'Pick up: the phone did not answer in time',
    ]);
    expect(historyEventText('accept-requested', en)).toBe('Accept: signature asked on the phone');
    expect(historyEventText('reassigned-elsewhere', en)).toBe('reassigned-elsewhere');
  });

  it('tells when an action kept on a phone was taken there and when the server got it (decision 076)', async () => {
    await act(() => i18next.changeLanguage('th'));
    const th = i18next.getFixedT('th', 'prescriptions');
    const en = i18next.getFixedT('en', 'prescriptions');
    const kept = {
      at: '2026-11-23T09:43:00.000Z',
      changes: { status: 'delivered', performedAt: '2026-11-23T09:22:00.000Z' },
    };
    expect(historyTimeText(kept, en)).toBe(
      `${formatDateTime(kept.changes.performedAt)} on the device (offline), recorded ${formatDateTime(kept.at)}`,
    );
    expect(historyTimeText(kept, th)).toBe(
      `${formatDateTime(kept.changes.performedAt)} บนอุปกรณ์ (ออฟไลน์) บันทึกเมื่อ ${formatDateTime(kept.at)}`,
    );
    // Kept for seconds only, or with nothing readable kept: the time of recording alone.
    for (const changes of [
      { performedAt: '2026-11-23T09:42:30.000Z' },
      { performedAt: 'soon' },
      { performedAt: 42 },
      null,
    ]) {
      expect(historyTimeText({ at: kept.at, changes }, en)).toBe(formatDateTime(kept.at));
    }
  });

  it('asks the server in Thai: every request says Accept-Language th', async () => {
    withHistory(network);
    await act(() => i18next.changeLanguage('th'));
    signIn(pharmacist);
    renderApp(`/pharmacy/${pharmacyId}`);
    await screen.findByRole('list', { name: 'ใบสั่งยาที่รอดำเนินการ' });
    const calls = network.callsTo('GET', '/api/prescriptions');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.headers['accept-language'] === 'th')).toBe(true);
  });

  it("the top bar's switch speaks Thai at once, says so to <html lang>, and stores it on the account", async () => {
    withHistory(network).on('PATCH', '/api/users/me/preferences', (call) =>
      json({ ...pharmacist, ...(JSON.parse(call.body ?? '{}') as object) }),
    );
    signIn(pharmacist);
    renderApp(`/pharmacy/${pharmacyId}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Waiting prescriptions' })).toBeVisible();
    fireEvent.click(screen.getByRole('radio', { name: 'ไทย' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'ใบสั่งยาที่รอดำเนินการ' })).toBeVisible();
    expect(screen.getByRole('button', { name: /^ออกจากระบบ \(\d+ วิ\.\)$/ })).toBeVisible();
    expect(document.documentElement.lang).toBe('th');
    await waitFor(() => expect(network.callsTo('PATCH', '/api/users/me/preferences')).toHaveLength(1));
    expect(JSON.parse(network.callsTo('PATCH', '/api/users/me/preferences')[0]?.body ?? '')).toEqual({
      language: 'th',
    });
    expect(localStorage.getItem('careplane.language')).toBe('th');
  });
});
