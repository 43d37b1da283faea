import { describe, expect, it } from 'vitest';
import { prescriptionStatuses, type PrescriptionStatus } from '../common/enums.ts';
import {
  allowedActions,
  finalPrescriptionStatuses,
  isPrescriptionAction,
  isPrescriptionStatus,
  nextStatus,
  prescriptionActions,
  prescriptionTransitions,
  type PrescriptionAction,
} from './prescription-transitions.ts';

// The table of decisions §5, written out independently: action → [from..., to].
const expected: Record<PrescriptionAction, [PrescriptionStatus[], PrescriptionStatus]> = {
  issue: [['new'], 'issued'],
  accept: [['issued'], 'waiting'],
  hold: [['issued', 'waiting', 'ready'], 'on_hold'],
  resume: [['on_hold'], 'waiting'],
  'mark-ready': [['issued', 'waiting'], 'ready'],
  pickup: [['ready'], 'picked_up'],
  delivered: [['picked_up'], 'delivered'],
  return: [['picked_up'], 'returned'],
  restock: [['returned'], 'waiting'],
};

describe('prescription transitions', () => {
  it('covers exactly the nine actions of the table', () => {
    expect([...prescriptionActions].sort()).toEqual(Object.keys(expected).sort());
    expect(Object.keys(prescriptionTransitions).sort()).toEqual(Object.keys(expected).sort());
  });

  // Every (action, status) pair: allowed pairs lead to the table's target, all others to null.
  for (const action of prescriptionActions) {
    const [from, to] = expected[action];
    for (const status of prescriptionStatuses) {
      const result = from.includes(status) ? to : null;
      it(`${action} from ${status} → ${result ?? 'refused'}`, () => {
        expect(nextStatus(action, status)).toBe(result);
      });
    }
  }

  it('lists the allowed actions of every status in table order', () => {
    expect(allowedActions('new')).toEqual(['issue']);
    expect(allowedActions('issued')).toEqual(['accept', 'hold', 'mark-ready']);
    expect(allowedActions('waiting')).toEqual(['hold', 'mark-ready']);
    expect(allowedActions('ready')).toEqual(['hold', 'pickup']);
    expect(allowedActions('on_hold')).toEqual(['resume']);
    expect(allowedActions('picked_up')).toEqual(['delivered', 'return']);
    expect(allowedActions('returned')).toEqual(['restock']);
    expect(allowedActions('delivered')).toEqual([]);
  });

  it('agrees with nextStatus for every status', () => {
    for (const status of prescriptionStatuses) {
      const viaNext = prescriptionActions.filter((action) => nextStatus(action, status) !== null);
      expect(allowedActions(status)).toEqual(viaNext);
    }
  });

  it('has delivered as the only final status and reaches every status from new', () => {
    expect(finalPrescriptionStatuses).toEqual(['delivered']);
    const reached = new Set<PrescriptionStatus>(['new']);
    let frontier: PrescriptionStatus[] = ['new'];
    while (frontier.length) {
      frontier = frontier
        .flatMap((status) => allowedActions(status).map((action) => nextStatus(action, status)!))
        .filter((status) => !reached.has(status));
      frontier.forEach((status) => reached.add(status));
    }
    expect([...reached].sort()).toEqual([...prescriptionStatuses].sort());
  });

  it('follows the spec flow waiting → ready → picked up → delivered', () => {
    let status: PrescriptionStatus = 'new';
    for (const action of ['issue', 'accept', 'mark-ready', 'pickup', 'delivered'] as const) {
      status = nextStatus(action, status)!;
    }
    expect(status).toBe('delivered');
  });

  it('names who may act and which receipt is signed', () => {
    expect(prescriptionTransitions.issue).toMatchObject({ actor: 'issuer', signs: 'issuerReceipt' });
    expect(prescriptionTransitions.pickup).toMatchObject({ actor: 'pickupParty', signs: 'pickupReceipt' });
    for (const action of ['accept', 'hold', 'resume', 'mark-ready', 'restock'] as const) {
      expect(prescriptionTransitions[action].actor).toBe('supplierPharmacist');
    }
    expect(prescriptionTransitions.delivered.actor).toBe('picker');
    expect(prescriptionTransitions.return.actor).toBe('picker');
  });

  it('recognises actions and statuses', () => {
    expect(isPrescriptionAction('mark-ready')).toBe(true);
    expect(isPrescriptionAction('markReady')).toBe(false);
    expect(isPrescriptionAction(undefined)).toBe(false);
    expect(isPrescriptionStatus('on_hold')).toBe(true);
    expect(isPrescriptionStatus('cancelled')).toBe(false);
  });
});
