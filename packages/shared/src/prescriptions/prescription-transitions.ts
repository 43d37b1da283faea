// The prescription status machine as data: the server enforces it, the console derives its buttons from it.
import { prescriptionStatuses, type PrescriptionStatus } from '../common/enums.ts';

/** Actions, each the last segment of `POST /api/prescriptions/{id}/<action>`. */
export const prescriptionActions = [
  'issue',
  'accept',
  'hold',
  'resume',
  'mark-ready',
  'pickup',
  'delivered',
  'return',
  'restock',
] as const;
export type PrescriptionAction = (typeof prescriptionActions)[number];

/**
 * Who may perform an action besides an admin (admins may perform any action):
 * - `issuer`: the prescription's issuer;
 * - `supplierPharmacist`: a pharmacist employed by the supplier;
 * - `pickupParty`: the nurse when `pickupByNurse` is true, otherwise the shipper's driver or a courier
 *   employed by the shipper;
 * - `picker`: whoever picked the prescription up.
 */
export const prescriptionActors = ['issuer', 'supplierPharmacist', 'pickupParty', 'picker'] as const;
export type PrescriptionActor = (typeof prescriptionActors)[number];

export interface PrescriptionTransition {
  from: readonly PrescriptionStatus[];
  to: PrescriptionStatus;
  actor: PrescriptionActor;
  /** The document the actor's authenticator signs during the action, stored on the prescription. */
  signs?: 'issuerReceipt' | 'pickupReceipt';
}

export const prescriptionTransitions: Readonly<Record<PrescriptionAction, PrescriptionTransition>> = {
  issue: { from: ['new'], to: 'issued', actor: 'issuer', signs: 'issuerReceipt' },
  accept: { from: ['issued'], to: 'waiting', actor: 'supplierPharmacist' },
  hold: { from: ['issued', 'waiting', 'ready'], to: 'on_hold', actor: 'supplierPharmacist' },
  resume: { from: ['on_hold'], to: 'waiting', actor: 'supplierPharmacist' },
  'mark-ready': { from: ['issued', 'waiting'], to: 'ready', actor: 'supplierPharmacist' },
  pickup: { from: ['ready'], to: 'picked_up', actor: 'pickupParty', signs: 'pickupReceipt' },
  delivered: { from: ['picked_up'], to: 'delivered', actor: 'picker' },
  return: { from: ['picked_up'], to: 'returned', actor: 'picker' },
  restock: { from: ['returned'], to: 'waiting', actor: 'supplierPharmacist' },
};

export const isPrescriptionAction = (value: unknown): value is PrescriptionAction =>
  typeof value === 'string' && (prescriptionActions as readonly string[]).includes(value);

export const isPrescriptionStatus = (value: unknown): value is PrescriptionStatus =>
  typeof value === 'string' && (prescriptionStatuses as readonly string[]).includes(value);

/** The status an action leads to from `from`, or null when the action is not allowed there. */
export function nextStatus(action: PrescriptionAction, from: PrescriptionStatus): PrescriptionStatus | null {
  const transition = prescriptionTransitions[action];
  return transition.from.includes(from) ? transition.to : null;
}

/** The actions allowed in a status, in the table's order. */
export function allowedActions(status: PrescriptionStatus): PrescriptionAction[] {
  return prescriptionActions.filter((action) => prescriptionTransitions[action].from.includes(status));
}

/** Statuses no action leaves. */
export const finalPrescriptionStatuses: readonly PrescriptionStatus[] = prescriptionStatuses.filter(
  (status) => allowedActions(status).length === 0,
);
