// GET /api/prescriptions/choices: what a doctor's prescription form offers (decision 084), and the submission
// the form makes from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrescriptionChoices } from '@careplane/shared/prescriptions/prescriptions.contract';
import {
  createCommandCenter,
  createPatient,
  createServiceProvider,
  createUser,
  type TestUser,
} from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
let doctor: TestUser;
let otherDoctor: TestUser;
let nurse: TestUser;
let pia: TestUser;
let bao: TestUser;
let stranger: TestUser;
let pharmacy: string;
let courier: string;

const path = '/api/prescriptions/choices';

beforeAll(async () => {
  context = await createTestContext();
  doctor = await createUser(context, { firstName: 'Dora', lastName: 'Doctor', localRoles: ['doctor'] });
  otherDoctor = await createUser(context, { firstName: 'Olle', lastName: 'Other', localRoles: ['doctor'] });
  nurse = await createUser(context, { firstName: 'Nora', lastName: 'Nurse', localRoles: ['nurse'] });
  pia = await createPatient(context, {
    firstName: 'Pia',
    lastName: 'Patient',
    address: [{ street: 'Nimman Rd', city: 'Chiang Mai' }],
    assignedNurses: [nurse.id],
    additionalInfo: {
      localizedFirstName: 'เปีย',
      localizedLastName: 'ผู้ป่วย',
      identityDocumentType: 'none',
      identityDocumentIsValidIndefinitely: false,
    },
  });
  // Discharged: still offered (the medicines one goes home with), after those in care, and named so.
  bao = await createPatient(context, { firstName: 'Bao', lastName: 'Adisorn' }, { status: 'discharged' });
  // A patient of a center the doctor does not work for, and a nurse of the doctor's center.
  stranger = await createPatient(context, { firstName: 'Sam', lastName: 'Stranger' });
  await createCommandCenter(context, {
    title: 'North',
    assignedUsers: [doctor.id, pia.id, bao.id, nurse.id],
  });
  await createCommandCenter(context, { title: 'South', assignedUsers: [otherDoctor.id, stranger.id] });
  pharmacy = (
    await createServiceProvider(context, {
      title: 'Riverside Pharmacy',
      type: 'pharmacy',
      address: { street: 'Tha Phae Rd', city: 'Chiang Mai' },
    })
  ).id;
  courier = (await createServiceProvider(context, { title: 'Swift Couriers', type: 'courier' })).id;
  await createServiceProvider(context, { title: 'Closed Pharmacy', type: 'pharmacy', isEnabled: false });
  await createServiceProvider(context, { title: 'Home Nursing Co', type: 'nurse' });
});
afterAll(async () => {
  await context?.close();
});

describe('GET /api/prescriptions/choices', () => {
  it('offers a doctor the patients of their centers with their town and nurse, and the enabled providers', async () => {
    const response = await api(context, doctor.token).get(path);
    expect(response.statusCode, response.body).toBe(200);
    const choices = response.json<PrescriptionChoices>();
    expect(choices.patients).toEqual([
      {
        id: pia.id,
        firstName: 'Pia',
        lastName: 'Patient',
        // Their name in Thai, from their identity document: the form finds them by it too.
        localizedName: 'เปีย ผู้ป่วย',
        city: 'Chiang Mai',
        nurse: { id: nurse.id, firstName: 'Nora', lastName: 'Nurse' },
        status: 'enrolled',
      },
      {
        id: bao.id,
        firstName: 'Bao',
        lastName: 'Adisorn',
        localizedName: null,
        city: null,
        nurse: null,
        status: 'discharged',
      },
    ]);
    expect(choices.pharmacies).toContainEqual({
      id: pharmacy,
      title: 'Riverside Pharmacy',
      city: 'Chiang Mai',
    });
    expect(choices.pharmacies.map((provider) => provider.title)).not.toContain('Closed Pharmacy');
    expect(choices.couriers).toContainEqual({ id: courier, title: 'Swift Couriers' });
    expect(choices.couriers.map((provider) => provider.title)).not.toContain('Home Nursing Co');
  });

  it("gives another doctor their own center's patients only", async () => {
    const choices = (await api(context, otherDoctor.token).get(path)).json<PrescriptionChoices>();
    expect(choices.patients.map((patient) => patient.id)).toEqual([stranger.id]);
  });

  it('refuses whoever is not a doctor or an admin, and answers 401 without a token', async () => {
    for (const token of [nurse.token, pia.token]) {
      const response = await api(context, token).get(path);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        message:
          'Only a doctor or an admin writes prescriptions: this list is what the prescription form offers',
      });
    }
    expect((await context.app.inject({ url: path })).statusCode).toBe(401);
    // An admin may submit too: the patients of their own centers (none here), the same providers.
    const admin = await api(context).get(path);
    expect(admin.statusCode).toBe(200);
    expect(admin.json<PrescriptionChoices>()).toMatchObject({
      patients: [],
      couriers: expect.arrayContaining([{ id: courier, title: 'Swift Couriers' }]),
    });
  });

  it('takes the submission the form makes from the choices: the delivery address is the patient’s own', async () => {
    const response = await api(context, doctor.token).post('/api/prescriptions', {
      issuer: doctor.id,
      recipient: pia.id,
      supplier: pharmacy,
      pickupByNurse: true,
      nurse: nurse.id,
      content: [
        { name: 'Metformin', strength: '500 mg', quantity: 60, unit: 'tablets', dosage: 'twice daily' },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      status: 'new',
      issuerId: doctor.id,
      recipientId: pia.id,
      nurseId: nurse.id,
      deliveryAddress: { street: 'Nimman Rd', city: 'Chiang Mai' },
      pickupAddress: { street: 'Tha Phae Rd', city: 'Chiang Mai' },
    });
  });
});
