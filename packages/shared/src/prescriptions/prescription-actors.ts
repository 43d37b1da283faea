// Who may perform each action of the transition table (decisions §5), as one function the server enforces and
// the console offers its buttons from.
import type { PrescriptionStatus } from '../common/enums.ts';
import {
  allowedActions,
  prescriptionTransitions,
  type PrescriptionAction,
  type PrescriptionActor,
} from './prescription-transitions.ts';

/** The parts of a prescription that decide who acts on it. */
export interface PrescriptionParties {
  status: PrescriptionStatus;
  issuerId: string | null;
  recipientId: string | null;
  pickupByNurse: boolean | null;
  nurseId: string | null;
  supplierId: string | null;
  shipperId: string | null;
  shipperDriverId: string | null;
}

/** Who is asking: their user, local roles and the service providers employing them. */
export interface PrescriptionViewer {
  userId: string | null;
  localRoles: readonly string[];
  employerIds: readonly string[];
  isAdmin: boolean;
}

/** Whoever picked the prescription up: the nurse, or the shipper's driver (a courier becomes it at pickup). */
export const pickerOf = (parties: PrescriptionParties) =>
  parties.pickupByNurse ? parties.nurseId : parties.shipperDriverId;

/** Whether the viewer fills the actor's part on this prescription (admins aside). */
export function fillsPart(
  actor: PrescriptionActor,
  parties: PrescriptionParties,
  viewer: PrescriptionViewer,
) {
  const me = viewer.userId;
  if (!me) return false;
  const employedBy = (providerId: string | null) =>
    providerId !== null && viewer.employerIds.includes(providerId);
  switch (actor) {
    case 'issuer':
      return parties.issuerId === me;
    case 'supplierPharmacist':
      return viewer.localRoles.includes('pharmacist') && employedBy(parties.supplierId);
    case 'pickupParty':
      if (parties.pickupByNurse) return parties.nurseId === me;
      return (
        parties.shipperDriverId === me ||
        (viewer.localRoles.includes('courier') && employedBy(parties.shipperId))
      );
    case 'picker':
      return pickerOf(parties) === me;
  }
}

/** Whether the viewer may perform the action at all on this prescription, whatever its status. */
export const mayPerform = (
  action: PrescriptionAction,
  parties: PrescriptionParties,
  viewer: PrescriptionViewer,
) => viewer.isAdmin || fillsPart(prescriptionTransitions[action].actor, parties, viewer);

/** The actions the viewer may take now: the table's actions from the status, those the viewer's part allows. */
export const availableActions = (
  parties: PrescriptionParties,
  viewer: PrescriptionViewer,
): PrescriptionAction[] =>
  allowedActions(parties.status).filter((action) => mayPerform(action, parties, viewer));

/** Whether the viewer takes part in the prescription at all (everyone else does not learn it exists). */
export function takesPart(parties: PrescriptionParties, viewer: PrescriptionViewer) {
  if (viewer.isAdmin) return true;
  const me = viewer.userId;
  if (!me) return false;
  return (
    [parties.issuerId, parties.recipientId, parties.nurseId, parties.shipperDriverId].includes(me) ||
    fillsPart('supplierPharmacist', parties, viewer) ||
    fillsPart('pickupParty', parties, viewer)
  );
}

/**
 * Whether the viewer works on the prescription (an admin, its issuer, its pharmacy, whoever picks it up), more
 * than receiving it: the recipient alone reads its history without the staff's notes (decision 085).
 */
export const worksOn = (parties: PrescriptionParties, viewer: PrescriptionViewer) =>
  takesPart({ ...parties, recipientId: null }, viewer);
