// A doctor writes a prescription from Written (decision 084), with the API faked at the network edge: the
// choices the form offers, the submission it makes in the doctor's name, and what it says when something is
// missing.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  Prescription,
  PrescriptionChoices,
  PrescriptionViewerAnswer,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';

const doctor = makeUser({ id: '0190a0b0-0000-7000-8000-00000000d001', localRoles: ['doctor'] });
const nurse = { id: '0190a0b0-0000-7000-8000-00000000d003', firstName: 'Nora', lastName: 'Nurse' };
const pia = '0190a0b0-0000-7000-8000-00000000d002';
const bao = '0190a0b0-0000-7000-8000-00000000d004';
const pharmacy = '0190a0b0-0000-7000-8000-00000000a001';
const courier = '0190a0b0-0000-7000-8000-00000000a002';

const choices: PrescriptionChoices = {
  patients: [
    {
      id: pia,
      firstName: 'Pia',
      lastName: 'Patient',
      localizedName: 'เปีย ผู้ป่วย',
      city: 'Lamphun',
      nurse,
      status: 'enrolled',
    },
    {
      id: bao,
      firstName: 'Bao',
      lastName: 'Adisorn',
      localizedName: null,
      city: null,
      nurse: null,
      status: 'discharged',
    },
  ],
  pharmacies: [{ id: pharmacy, title: 'Riverside Pharmacy', city: 'Chiang Mai' }],
  couriers: [{ id: courier, title: 'Swift Couriers' }],
};

const viewer: PrescriptionViewerAnswer = {
  userId: doctor.id,
  localRoles: doctor.localRoles,
  employerIds: [],
  employers: [],
  isAdmin: false,
};

const created = (body: Record<string, unknown>): Prescription => ({
  id: '0190a0b0-0000-7000-8000-00000000b009',
  createdAt: '2026-11-29T09:00:00.000Z',
  updatedAt: '2026-11-29T09:00:00.000Z',
  status: 'new',
  issuerId: doctor.id,
  issuerReceiptId: null,
  pickupByNurse: Boolean(body.pickupByNurse),
  nurseId: (body.nurse as string | undefined) ?? null,
  supplierId: pharmacy,
  shipperId: (body.shipper as string | undefined) ?? null,
  shipperDriverId: null,
  pickupReceiptId: null,
  recipientId: pia,
  pickupAddress: null,
  deliveryAddress: null,
  content: body.content as Prescription['content'],
  version: 1,
  createdByUserId: doctor.id,
});

let network: FakeNetwork;
let submitted: Record<string, unknown>[];
beforeEach(() => {
  resetSession();
  submitted = [];
  network = fakeNetwork()
    .install()
    .on('GET', '/api/prescriptions/viewer', () => json(viewer))
    .on('GET', '/api/prescriptions/choices', () => json(choices))
    .on('GET', '/api/prescriptions', () => json({ items: [], total: 0, limit: 100, offset: 0 }))
    .on('POST', '/api/prescriptions', (request) => {
      const body = JSON.parse(request.body ?? '{}') as Record<string, unknown>;
      submitted.push(body);
      return json(created(body), 201);
    });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const field = (label: string) => new RegExp(`^${label}`);

/** Picks from a searchable list as a person does, typing its first letters. */
async function pick(label: string, option: string | RegExp, typed: string) {
  await userEvent.type(await screen.findByRole('combobox', { name: field(label) }), typed);
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe("a doctor's own prescription form", () => {
  it('opens from Written, offers the patients of their centers, and submits in the doctor’s name', async () => {
    signIn(doctor);
    const { router } = renderApp('/prescriptions/written', { env: 'test' });
    await userEvent.click(await screen.findByRole('link', { name: 'Write a prescription' }));
    await screen.findByRole('heading', { name: 'Write a prescription' });
    expect(router.state.location.pathname).toBe('/prescriptions/written/new');
    // Written stays the current tab while the doctor writes.
    const menu = screen.getByRole('navigation', { name: 'Prescriptions menu' });
    expect(within(menu).getByRole('link', { name: /^Written/ })).toHaveAttribute('aria-current', 'page');
    // A patient reads with their town and their nurse, so two people of one name are told apart; one
    // discharged says so (the server offers them last).
    await userEvent.click(await screen.findByRole('combobox', { name: field('Patient') }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Pia Patient · เปีย ผู้ป่วย · Lamphun · nurse Nora Nurse',
      'Bao Adisorn · discharged',
    ]);
    await userEvent.click(screen.getByRole('option', { name: /Pia Patient/ }));
    await pick('Pharmacy', 'Riverside Pharmacy · Chiang Mai', 'Riv');
    await pick('Courier company', 'Swift Couriers', 'Sw');
    await userEvent.type(screen.getByRole('textbox', { name: field('Name') }), 'Metformin');
    await userEvent.type(screen.getByRole('textbox', { name: field('Strength') }), '500 mg');
    await userEvent.type(screen.getByRole('textbox', { name: field('Quantity') }), '60');
    await userEvent.click(screen.getByRole('button', { name: 'Save as new' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/prescriptions/written'));
    expect(submitted).toEqual([
      {
        issuer: doctor.id,
        recipient: pia,
        supplier: pharmacy,
        shipper: courier,
        pickupByNurse: false,
        content: [{ name: 'Metformin', strength: '500 mg', quantity: 60 }],
      },
    ]);
    expect(
      await screen.findByText('Written: Metformin 500 mg × 60. Issue it when it is ready.'),
    ).toBeVisible();
  });

  it('says a save without a network did not happen, where the doctor looks, and keeps what was typed', async () => {
    let online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    signIn(doctor);
    const { router } = renderApp('/prescriptions/written/new', { env: 'test' });
    await pick('Patient', /Pia Patient/, 'Pia');
    await pick('Pharmacy', 'Riverside Pharmacy · Chiang Mai', 'Riv');
    await pick('Courier company', 'Swift Couriers', 'Sw');
    await userEvent.type(screen.getByRole('textbox', { name: field('Name') }), 'Metformin');
    await userEvent.type(screen.getByRole('textbox', { name: field('Quantity') }), '60');

    online = false;
    network.on('POST', '/api/prescriptions', () => {
      throw new TypeError('Failed to fetch');
    });
    await userEvent.click(screen.getByRole('button', { name: 'Save as new' }));
    const told = await screen.findByRole('alert');
    expect(told).toHaveTextContent(
      'Not saved: you are offline. What you typed stays; save again once online.',
    );
    await waitFor(() => expect(told).toHaveFocus());
    expect(router.state.location.pathname).toBe('/prescriptions/written/new');
    expect(screen.getByRole('textbox', { name: field('Name') })).toHaveValue('Metformin');

    // Back online, the same form saves.
    online = true;
    network.on('POST', '/api/prescriptions', (request) => {
      const body = JSON.parse(request.body ?? '{}') as Record<string, unknown>;
      submitted.push(body);
      return json(created(body), 201);
    });
    await userEvent.click(screen.getByRole('button', { name: 'Save as new' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/prescriptions/written'));
    expect(submitted).toHaveLength(1);
    vi.restoreAllMocks();
  });

  it('finds a patient by the name in Thai as well', async () => {
    signIn(doctor);
    renderApp('/prescriptions/written/new', { env: 'test' });
    await userEvent.type(await screen.findByRole('combobox', { name: field('Patient') }), 'เปีย');
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Pia Patient · เปีย ผู้ป่วย · Lamphun · nurse Nora Nurse',
    ]);
  });

  it('says what is missing on the field it concerns, and sends nothing', async () => {
    signIn(doctor);
    renderApp('/prescriptions/written/new', { env: 'test' });
    await pick('Patient', /Pia Patient/, 'Pia');
    await pick('Pharmacy', 'Riverside Pharmacy · Chiang Mai', 'Riv');
    await userEvent.type(screen.getByRole('textbox', { name: field('Name') }), 'Metformin');
    await userEvent.type(screen.getByRole('textbox', { name: field('Quantity') }), '60');
    await userEvent.click(screen.getByRole('button', { name: 'Save as new' }));
    const courierField = screen.getByRole('combobox', { name: field('Courier company') });
    await waitFor(() => expect(courierField).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('Required unless a nurse picks it up')).toBeVisible();
    // The field in error takes the focus without opening its list over the message.
    await waitFor(() => expect(courierField).toHaveFocus());
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(submitted).toEqual([]);
  });

  it('names the fields as the doctor reads them, not as the contract calls them', async () => {
    signIn(doctor);
    renderApp('/prescriptions/written/new', { env: 'test' });
    await userEvent.click(await screen.findByRole('button', { name: 'Save as new' }));
    const patientField = screen.getByRole('combobox', { name: field('Patient') });
    await waitFor(() => expect(patientField).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('Patient is required.')).toBeVisible();
    expect(screen.getByText('Pharmacy is required.')).toBeVisible();
    expect(screen.queryByText(/Recipient|Supplier/)).toBeNull();
    expect(submitted).toEqual([]);
  });

  it('tells a doctor with no patient in their centers why there is nothing to write for', async () => {
    network.on('GET', '/api/prescriptions/choices', () => json({ ...choices, patients: [] }));
    signIn(doctor);
    renderApp('/prescriptions/written/new', { env: 'test' });
    expect(await screen.findByText(/No patient is assigned to your command centers/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save as new' })).toBeNull();
    expect(within(document.body).queryByRole('combobox', { name: field('Patient') })).toBeNull();
  });

  it('offers no Write button to whoever is not a doctor', async () => {
    const nurseUser = makeUser({ localRoles: ['nurse'] });
    network.on('GET', '/api/prescriptions/viewer', () =>
      json({ ...viewer, userId: nurseUser.id, localRoles: ['nurse'] }),
    );
    signIn(nurseUser);
    renderApp('/prescriptions/written', { env: 'test' });
    // The list is drawn once the viewer is known: the button would be there by then.
    expect(await screen.findByText('No prescriptions here.')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Write a prescription' })).toBeNull();
  });
});
