import { describe, expect, it } from 'vitest';
import {
  availableActions,
  mayPerform,
  pickerOf,
  takesPart,
  type PrescriptionParties,
  type PrescriptionViewer,
} from './prescription-actors.ts';

const parties: PrescriptionParties = {
  status: 'waiting',
  issuerId: 'doctor',
  recipientId: 'patient',
  pickupByNurse: false,
  nurseId: null,
  supplierId: 'pharmacy',
  shipperId: 'couriers',
  shipperDriverId: 'driver',
};
const viewer = (patch: Partial<PrescriptionViewer>): PrescriptionViewer => ({
  userId: 'someone',
  localRoles: [],
  employerIds: [],
  isAdmin: false,
  ...patch,
});
const pharmacist = viewer({ userId: 'phil', localRoles: ['pharmacist'], employerIds: ['pharmacy'] });
const courier = viewer({ userId: 'cole', localRoles: ['courier'], employerIds: ['couriers'] });

describe('who may act on a prescription', () => {
  it('gives a pharmacist of the supplier the pharmacy actions, and only with the role', () => {
    expect(availableActions(parties, pharmacist)).toEqual(['hold', 'mark-ready']);
    expect(availableActions(parties, viewer({ userId: 'phil', employerIds: ['pharmacy'] }))).toEqual([]);
    expect(availableActions(parties, viewer({ localRoles: ['pharmacist'], employerIds: ['other'] }))).toEqual(
      [],
    );
  });

  it('lets the driver or a courier of the shipper pick up, and only the picker deliver', () => {
    const ready = { ...parties, status: 'ready' as const };
    expect(availableActions(ready, courier)).toEqual(['pickup']);
    expect(availableActions(ready, viewer({ userId: 'driver' }))).toEqual(['pickup']);
    const pickedUp = { ...parties, status: 'picked_up' as const };
    expect(availableActions(pickedUp, viewer({ userId: 'driver' }))).toEqual(['delivered', 'return']);
    expect(availableActions(pickedUp, courier)).toEqual([]);
  });

  it('hands pickup to the nurse alone when pickupByNurse', () => {
    const byNurse = { ...parties, status: 'ready' as const, pickupByNurse: true, nurseId: 'nora' };
    expect(pickerOf(byNurse)).toBe('nora');
    expect(availableActions(byNurse, viewer({ userId: 'nora' }))).toEqual(['pickup']);
    expect(availableActions(byNurse, courier)).toEqual([]);
    expect(takesPart(byNurse, courier)).toBe(false);
  });

  it('lets admins do everything the status allows, and nobody act without a user', () => {
    expect(availableActions({ ...parties, status: 'ready' }, viewer({ isAdmin: true }))).toEqual([
      'hold',
      'pickup',
    ]);
    expect(mayPerform('issue', { ...parties, status: 'new' }, viewer({ userId: null }))).toBe(false);
  });

  it('counts issuer, recipient, driver and the employed parties as taking part, no one else', () => {
    for (const userId of ['doctor', 'patient', 'driver'])
      expect(takesPart(parties, viewer({ userId }))).toBe(true);
    expect(takesPart(parties, pharmacist)).toBe(true);
    expect(takesPart(parties, courier)).toBe(true);
    expect(takesPart(parties, viewer({}))).toBe(false);
  });
});
