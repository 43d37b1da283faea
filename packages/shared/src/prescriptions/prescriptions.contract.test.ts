import { describe, expect, it } from 'vitest';
import {
  MAX_PRESCRIPTION_ITEMS,
  lockedPrescriptionFields,
  pickupAssignmentIssues,
  prescriptionSubmissionSchema,
  prescriptionUpdateSchema,
} from './prescriptions.contract.ts';

const id = (n: number) => `0190a0b0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const submission = {
  issuer: id(1),
  supplier: id(2),
  recipient: id(3),
  shipper: id(4),
  content: [{ name: 'Amoxicillin', strength: '500 mg', quantity: 20, unit: 'capsules' }],
};
const issuePaths = (value: unknown) => {
  const result = prescriptionSubmissionSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('prescription submission', () => {
  it('accepts a complete submission', () => {
    expect(issuePaths(submission)).toEqual([]);
  });

  it('requires issuer, supplier, recipient and content', () => {
    const rest = {
      ...submission,
      issuer: undefined,
      supplier: undefined,
      recipient: undefined,
      content: undefined,
    };
    expect(issuePaths(rest).sort()).toEqual(['content', 'issuer', 'recipient', 'supplier']);
  });

  it('requires a non-empty, bounded content list of valid items', () => {
    expect(issuePaths({ ...submission, content: [] })).toEqual(['content']);
    const many = Array.from({ length: MAX_PRESCRIPTION_ITEMS + 1 }, () => submission.content[0]);
    expect(issuePaths({ ...submission, content: many })).toEqual(['content']);
    expect(issuePaths({ ...submission, content: [{ name: ' ', quantity: 0 }] }).sort()).toEqual([
      'content.0.name',
      'content.0.quantity',
    ]);
    expect(issuePaths({ ...submission, content: [{ name: 'A', quantity: 1, colour: 'red' }] })).toEqual([
      'content.0',
    ]);
  });

  it('requires a nurse only when pickupByNurse is true and a shipper only when it is not', () => {
    const withoutShipper = { ...submission, shipper: undefined };
    expect(issuePaths(withoutShipper)).toEqual(['shipper']);
    expect(issuePaths({ ...withoutShipper, pickupByNurse: false })).toEqual(['shipper']);
    expect(issuePaths({ ...withoutShipper, pickupByNurse: true })).toEqual(['nurse']);
    expect(issuePaths({ ...withoutShipper, pickupByNurse: true, nurse: id(5) })).toEqual([]);
    expect(issuePaths({ ...submission, shipper: null })).toEqual(['shipper']);
  });

  it('refuses a status and unknown fields', () => {
    expect(issuePaths({ ...submission, status: 'ready' })).toEqual(['']);
    expect(issuePaths({ ...submission, pickupByNurse: 'yes' })).toEqual(['pickupByNurse']);
    expect(issuePaths({ ...submission, issuer: 'not-a-uuid' })).toEqual(['issuer']);
  });

  it('lets an update name only some fields, and still refuses status', () => {
    expect(prescriptionUpdateSchema.safeParse({ nurse: null }).success).toBe(true);
    expect(prescriptionUpdateSchema.safeParse({ status: 'issued' }).success).toBe(false);
    expect(prescriptionUpdateSchema.safeParse({ content: [] }).success).toBe(false);
  });
});

describe('pickup assignment rule', () => {
  it('reports the missing party', () => {
    expect(pickupAssignmentIssues({ pickupByNurse: true })).toMatchObject([{ path: 'nurse' }]);
    expect(pickupAssignmentIssues({ pickupByNurse: null, nurse: id(1) })).toMatchObject([
      { path: 'shipper' },
    ]);
    expect(pickupAssignmentIssues({ pickupByNurse: true, nurse: id(1) })).toEqual([]);
    expect(pickupAssignmentIssues({ shipper: id(1) })).toEqual([]);
  });
});

describe('locked prescription fields', () => {
  const fields = ['content', 'shipper', 'deliveryAddress', 'issuer'];
  it('leaves a new prescription open, fixes signed fields after issue and everything after pickup', () => {
    expect(lockedPrescriptionFields('new', fields)).toEqual([]);
    expect(lockedPrescriptionFields('issued', fields)).toEqual(['content', 'issuer']);
    expect(lockedPrescriptionFields('returned', fields)).toEqual(['content', 'issuer']);
    expect(lockedPrescriptionFields('picked_up', fields)).toEqual(fields);
    expect(lockedPrescriptionFields('delivered', ['nurse'])).toEqual(['nurse']);
  });
});
