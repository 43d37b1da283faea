// The custody areas without a network (decision 046), the API faked at the network edge and the browser's
// online flag set by the test: a signing action says it needs the network, a plain one is kept (the card and
// the banner say so) and sent with its Idempotency-Key once the browser is back online, and a kept action that
// meets a prescription someone else moved says plainly that it was not applied.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  Prescription,
  PrescriptionViewerAnswer,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { actionOutbox, postAction } from '@/lib/offline/action-outbox.ts';
import { sessionStore } from '@/lib/session.ts';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';
import { browserNetwork } from '@/test/online.ts';

const driver = makeUser({ id: '8b3c7a52-3f0e-4b59-9a77-0b1f1f5f2a12', localRoles: ['courier'] });
const courierCoId = '0190a0b0-0000-7000-8000-00000000a002';
const rxId = '0190a0b0-0000-7000-8000-00000000b002';

const prescriptionOf = (patch: Partial<Prescription> = {}): Prescription => ({
  id: rxId,
  createdAt: '2026-11-23T09:00:00.000Z',
  updatedAt: '2026-11-23T09:00:00.000Z',
  status: 'picked_up',
  issuerId: '0190a0b0-0000-7000-8000-00000000d001',
  issuerReceiptId: '0190a0b0-0000-7000-8000-00000000e001',
  pickupByNurse: false,
  nurseId: null,
  supplierId: '0190a0b0-0000-7000-8000-00000000a001',
  shipperId: courierCoId,
  shipperDriverId: driver.id,
  pickupReceiptId: '0190a0b0-0000-7000-8000-00000000e002',
  recipientId: '0190a0b0-0000-7000-8000-00000000d002',
  pickupAddress: { city: 'Chiang Mai', street: 'Tha Phae Rd' },
  deliveryAddress: { city: 'Lamphun', street: 'Nimman Rd' },
  content: [{ name: 'Losartan', strength: '50 mg', quantity: 30, unit: 'tablets' }],
  version: 5,
  createdByUserId: null,
  recipient: { id: '0190a0b0-0000-7000-8000-00000000d002', firstName: 'Pia', lastName: 'Patient' },
  ...patch,
});

const viewer = {
  userId: driver.id,
  localRoles: driver.localRoles,
  employerIds: [courierCoId],
  employers: [{ id: courierCoId, title: 'Swift Couriers', type: 'courier' }],
  isAdmin: false,
} satisfies PrescriptionViewerAnswer;

const page = (items: Prescription[]) => json({ items, total: items.length, limit: 100, offset: 0 });

/** The browser's online flag and its event, as a phone losing or finding the network. */
let setOnline: (online: boolean) => void;

/** Delivered asks first (a card that leaves the driver's list): the dialog's button confirms. */
async function confirmDelivered() {
  const dialog = await screen.findByRole('dialog', { name: 'Delivered to the recipient?' });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Delivered' }));
}

/** The driver's picked-up list, then Delivered without a network: kept on the device, the card says so. */
async function keepDeliveredOffline() {
  signIn(driver);
  renderApp('/prescriptions/picked-up');
  const card = await screen.findByRole('listitem', { name: /Losartan/ });
  setOnline(false);
  fireEvent.click(within(card).getByRole('button', { name: 'Delivered' }));
  await confirmDelivered();
  await within(card).findByTestId('kept-action');
  return card;
}

let network: FakeNetwork;
beforeEach(() => {
  resetSession();
  setOnline = browserNetwork();
  network = fakeNetwork().install();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the prescriptions area offline', () => {
  it('says that pick up needs the network instead of offering it', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () => json(viewer))
      .on('GET', '/api/prescriptions', () =>
        page([prescriptionOf({ status: 'ready', shipperDriverId: null })]),
      );
    signIn(driver);
    renderApp('/prescriptions');
    const card = await screen.findByRole('listitem', { name: /Losartan/ });
    expect(within(card).getByRole('button', { name: 'Pick up' })).toBeEnabled();
    setOnline(false);
    expect(
      within(card).getByRole('button', { name: 'Pick up needs the network (phone signature)' }),
    ).toBeDisabled();
    expect(screen.getByTestId('offline-banner')).toHaveTextContent('You are offline.');
    setOnline(true);
    expect(within(card).getByRole('button', { name: 'Pick up' })).toBeEnabled();
    expect(network.callsTo('POST', `/api/prescriptions/${rxId}/pickup`)).toHaveLength(0);
  });

  it('asks before Delivered and Return, which take the card off the driver’s list; Not yet changes nothing', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () => json(viewer))
      .on('GET', '/api/prescriptions', () => page([prescriptionOf()]));
    signIn(driver);
    renderApp('/prescriptions/picked-up');
    const card = await screen.findByRole('listitem', { name: /Losartan/ });
    for (const [button, title] of [
      ['Delivered', 'Delivered to the recipient?'],
      ['Return', 'Return it to the pharmacy?'],
    ] as const) {
      fireEvent.click(within(card).getByRole('button', { name: button }));
      const dialog = await screen.findByRole('dialog', { name: title });
      expect(dialog).toHaveTextContent(/Losartan 50 mg/);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Not yet' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
    expect(network.callsTo('POST', `/api/prescriptions/${rxId}/delivered`)).toHaveLength(0);
    expect(network.callsTo('POST', `/api/prescriptions/${rxId}/return`)).toHaveLength(0);
  });

  it('keeps a delivery made offline and sends it once, with its key, when the network is back', async () => {
    let current = prescriptionOf();
    network
      .on('GET', '/api/prescriptions/viewer', () => json(viewer))
      .on('GET', '/api/prescriptions', () => page(current.status === 'picked_up' ? [current] : []))
      .on('POST', `/api/prescriptions/${rxId}/delivered`, () => {
        current = prescriptionOf({ status: 'delivered' });
        return json(current);
      });
    const card = await keepDeliveredOffline();
    expect(within(card).getByTestId('kept-action')).toHaveTextContent(
      'Delivered — queued, will send when online',
    );
    expect(within(card).queryByRole('button', { name: 'Delivered' })).toBeNull();
    expect(screen.getByTestId('offline-banner')).toHaveTextContent('1 action waits to be sent.');
    expect(await screen.findByText(/“Delivered” kept on this device: Losartan/)).toBeVisible();
    expect(network.callsTo('POST', `/api/prescriptions/${rxId}/delivered`)).toHaveLength(0);

    setOnline(true);
    expect(await screen.findByText(/Kept action sent: Delivered — Losartan/)).toBeVisible();
    expect(await screen.findByText('No prescriptions here.')).toBeVisible();
    const sent = network.callsTo('POST', `/api/prescriptions/${rxId}/delivered`);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    // It says how long it was kept (by this device's clock), so the server records when it was taken, and the
    // status it was taken on, so that it applies only if nobody moved the prescription meanwhile (decision 093).
    expect(JSON.parse(sent[0]!.body!)).toEqual({
      keptForSeconds: expect.any(Number),
      expectedStatus: 'picked_up',
    });
    expect(screen.queryByTestId('offline-banner')).toBeNull();
  });

  it('offers the next step after a kept one, kept too, and sends both in order, each from where the one before leads', async () => {
    const pharmacist = makeUser({ id: '8b3c7a52-3f0e-4b59-9a77-0b1f1f5f2a13', localRoles: ['pharmacist'] });
    const pharmacyId = '0190a0b0-0000-7000-8000-00000000a001';
    let current = prescriptionOf({ status: 'issued', shipperDriverId: null, pickupReceiptId: null });
    const sent: string[] = [];
    const move = (action: string, status: Prescription['status']) => () => {
      sent.push(action);
      current = { ...current, status };
      return json(current);
    };
    network
      .on('GET', '/api/prescriptions/viewer', () =>
        json({
          userId: pharmacist.id,
          localRoles: pharmacist.localRoles,
          employerIds: [pharmacyId],
          employers: [{ id: pharmacyId, title: 'Riverside Pharmacy', type: 'pharmacy' }],
          isAdmin: false,
        } satisfies PrescriptionViewerAnswer),
      )
      .on('GET', '/api/prescriptions', () => page([current]))
      .on('POST', `/api/prescriptions/${rxId}/accept`, move('accept', 'waiting'))
      .on('POST', `/api/prescriptions/${rxId}/mark-ready`, move('mark-ready', 'ready'));
    signIn(pharmacist);
    renderApp('/pharmacy');
    const card = await screen.findByRole('listitem', { name: /Losartan/ });
    setOnline(false);
    fireEvent.click(within(card).getByRole('button', { name: 'Accept' }));
    await within(card).findByText('Accept — queued, will send when online');
    // From "waiting", where Accept leads: Hold and Mark ready, to keep as well.
    expect(
      within(card)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Hold', 'Mark ready', 'Details and history']);
    fireEvent.click(within(card).getByRole('button', { name: 'Mark ready' }));
    await within(card).findByText('Mark ready — queued, will send when online');
    // Ready: what follows is the courier's pickup, not the pharmacist's.
    expect(within(card).queryByRole('button', { name: 'Mark ready' })).toBeNull();
    expect(sent).toEqual([]);

    setOnline(true);
    await waitFor(() => expect(sent).toEqual(['accept', 'mark-ready']));
    const bodies = ['accept', 'mark-ready'].map(
      (action) =>
        JSON.parse(network.callsTo('POST', `/api/prescriptions/${rxId}/${action}`)[0]!.body!) as unknown,
    );
    expect(bodies).toEqual([
      { keptForSeconds: expect.any(Number), expectedStatus: 'issued' },
      { keptForSeconds: expect.any(Number), expectedStatus: 'waiting' },
    ]);
    await waitFor(() => expect(within(card).queryByTestId('kept-action')).toBeNull());
  });

  it('says how long an action was kept, however wrong the device clock is, and nothing for a direct one', async () => {
    network.on('POST', `/api/prescriptions/${rxId}/delivered`, () =>
      json(prescriptionOf({ status: 'delivered' })),
    );
    signIn(driver);
    const entry = { prescriptionId: rxId, action: 'delivered' as const, key: crypto.randomUUID() };
    // Kept 21 minutes; the device believes it is 1970.
    await postAction({ ...entry, queuedAt: 5_000 }, 5_000 + 21 * 60_000);
    // A clock set back meanwhile counts nothing, not a negative time; the longest is what a key answers for.
    await postAction({ ...entry, queuedAt: 9_000 }, 1_000);
    await postAction({ ...entry, queuedAt: 0 }, 40 * 24 * 3600_000);
    await postAction(entry);
    const bodies = network
      .callsTo('POST', `/api/prescriptions/${rxId}/delivered`)
      .map((call) => (call.body ? (JSON.parse(call.body) as unknown) : null));
    expect(bodies).toEqual([
      { keptForSeconds: 1260 },
      { keptForSeconds: 0 },
      { keptForSeconds: 30 * 24 * 3600 },
      null,
    ]);
  });

  it('keeps a return made offline with the reason the driver gave, and sends both when the network is back', async () => {
    let current = prescriptionOf();
    network
      .on('GET', '/api/prescriptions/viewer', () => json(viewer))
      .on('GET', '/api/prescriptions', () => page(current.status === 'picked_up' ? [current] : []))
      .on('POST', `/api/prescriptions/${rxId}/return`, () => {
        current = prescriptionOf({ status: 'returned' });
        return json(current);
      });
    signIn(driver);
    renderApp('/prescriptions/picked-up');
    const card = await screen.findByRole('listitem', { name: /Losartan/ });
    setOnline(false);
    fireEvent.click(within(card).getByRole('button', { name: 'Return' }));
    const dialog = await screen.findByRole('dialog', { name: 'Return it to the pharmacy?' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Why?' }), {
      target: { value: '  Nobody at home, the gate was locked  ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Return' }));
    await within(card).findByTestId('kept-action');
    expect(network.callsTo('POST', `/api/prescriptions/${rxId}/return`)).toHaveLength(0);

    setOnline(true);
    expect(await screen.findByText('No prescriptions here.')).toBeVisible();
    const sent = network.callsTo('POST', `/api/prescriptions/${rxId}/return`);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.body!)).toEqual({
      reason: 'Nobody at home, the gate was locked',
      keptForSeconds: expect.any(Number),
      expectedStatus: 'picked_up',
    });
  });

  it('says plainly that a kept delivery was not applied when someone else moved the prescription', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () => json(viewer))
      .on('GET', '/api/prescriptions', () => page([prescriptionOf()]))
      .on('POST', `/api/prescriptions/${rxId}/delivered`, () =>
        json(
          {
            statusCode: 409,
            error: 'Conflict',
            message: 'The prescription is returned: delivered needs picked_up',
            issues: [{ path: 'status', message: 'returned' }],
          },
          409,
        ),
      );
    const card = await keepDeliveredOffline();
    setOnline(true);
    expect(
      await screen.findByText(
        "Someone else already moved the prescription Losartan 50 mg × 30 tablets: it is now returned. Your 'Delivered' was not applied.",
      ),
    ).toBeVisible();
    // Not kept any longer: the card offers its actions again as the server has it.
    expect(await within(card).findByRole('button', { name: 'Delivered' })).toBeVisible();
    expect(network.callsTo('POST', `/api/prescriptions/${rxId}/delivered`)).toHaveLength(1);
  });

  it('says that the history and a signed receipt need the network, at once, and fetches nothing later by itself', async () => {
    const noNetwork = () => {
      throw new TypeError('Failed to fetch');
    };
    network
      .on('GET', '/api/prescriptions/viewer', () => json(viewer))
      .on('GET', '/api/prescriptions', () => page([prescriptionOf()]))
      .on('GET', `/api/prescriptions/${rxId}/history`, noNetwork)
      .on('GET', `/api/prescriptions/${rxId}/receipts/issuer`, noNetwork);
    signIn(driver);
    renderApp('/prescriptions/picked-up');
    const card = await screen.findByRole('listitem', { name: /Losartan/ });
    setOnline(false);
    fireEvent.click(within(card).getByRole('button', { name: 'Details and history' }));
    expect(await screen.findByTestId('history-offline')).toHaveTextContent(
      'You are offline. This needs the network: it loads again once you are back online.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Signed prescription' }));
    expect(await screen.findByText(/^Could not get prescription document\. You are offline\./)).toBeVisible();
    const receipts = () => network.callsTo('GET', `/api/prescriptions/${rxId}/receipts/issuer`).length;
    expect(receipts()).toBe(1);
    // Back online, the receipt is not downloaded by itself; the history loads again.
    network.on('GET', `/api/prescriptions/${rxId}/history`, () =>
      json({
        items: [{ at: '2026-11-23T10:00:00.000Z', action: 'pickup', actor: 'Dan Driver', changes: null }],
      }),
    );
    setOnline(true);
    expect(await screen.findByText(/Picked up · Dan Driver/)).toBeVisible();
    expect(screen.queryByTestId('history-offline')).toBeNull();
    expect(receipts()).toBe(1);
  });

  it('asks before logging out with actions not sent yet, and keeps them for the next sign-in (decision 076)', async () => {
    network
      .on('GET', '/api/prescriptions/viewer', () => json(viewer))
      .on('GET', '/api/prescriptions', () => page([prescriptionOf()]))
      .on('POST', `/api/prescriptions/${rxId}/delivered`, () =>
        json(prescriptionOf({ status: 'delivered' })),
      );
    await keepDeliveredOffline();

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    const asked = await screen.findByRole('dialog', { name: 'Actions not sent yet' });
    expect(asked).toHaveTextContent(
      '1 action is kept on this device, not sent yet. It is sent after you sign in again here. Log out anyway?',
    );
    fireEvent.click(within(asked).getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sessionStore.getState().user?.id).toBe(driver.id);

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    const again = await screen.findByRole('dialog', { name: 'Actions not sent yet' });
    fireEvent.click(within(again).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(sessionStore.getState().user).toBeNull());
    expect(actionOutbox.entries().map((entry) => entry.userId)).toEqual([driver.id]);
    expect(network.callsTo('POST', `/api/prescriptions/${rxId}/delivered`)).toHaveLength(0);

    // The next sign-in of the same driver sends it.
    setOnline(true);
    signIn(driver);
    await actionOutbox.flush(driver.id);
    expect(network.callsTo('POST', `/api/prescriptions/${rxId}/delivered`)).toHaveLength(1);
    expect(actionOutbox.entries()).toEqual([]);
  });

  it('says that a phone approval is checked once back online, when the network goes while it waits (decision 076)', async () => {
    const requestId = '0190a0b0-0000-7000-8000-00000000c0de';
    network
      .on('GET', '/api/prescriptions/viewer', () => json(viewer))
      .on('GET', '/api/prescriptions', () =>
        page([prescriptionOf({ status: 'ready', shipperDriverId: null })]),
      )
      .on('POST', `/api/prescriptions/${rxId}/pickup`, () =>
        json(
          {
            action: 'pickup',
            requestId,
            signerUserId: driver.id,
            signerName: 'Dan Driver',
            bindingMessage: 'AC 27',
            expiresIn: 120,
            interval: 1,
          },
          202,
        ),
      )
      .on('GET', `/api/prescriptions/${rxId}/signing/${requestId}`, () =>
        json({ action: 'pickup', requestId, status: 'pending', expiresIn: 119 }),
      );
    signIn(driver);
    renderApp('/prescriptions');
    fireEvent.click(await screen.findByRole('button', { name: 'Pick up' }));
    await screen.findByTestId('signing-pickup');
    expect(screen.queryByTestId('signing-offline')).toBeNull();
    setOnline(false);
    expect(screen.getByTestId('signing-offline')).toHaveTextContent(
      'You are offline: the phone can still approve, and its answer is checked as soon as you are back online.',
    );
    setOnline(true);
    expect(screen.queryByTestId('signing-offline')).toBeNull();
  });
});
