// Prescriptions: the submission, the partial update, the answer, and the rules both sides check.
import { z } from 'zod';
import { keptForSecondsSchema } from '../common/kept-actions.ts';
import { defineListSpec, filterKinds as k, resourceEndpoints } from '../common/list-spec.ts';
import { patientStatuses, prescriptionStatuses, type PrescriptionStatus } from '../common/enums.ts';
import { prescriptionActions, type PrescriptionAction } from './prescription-transitions.ts';
import { verificationReportSchema } from '../documents/documents.contract.ts';
import {
  MAX_TEXT,
  embedded,
  recordSchema,
  requiredText,
  streetAddressSchema,
  text,
  uuidSchema,
} from '../common/primitives.ts';

export const MAX_PRESCRIPTION_ITEMS = 50;
export const MAX_PRESCRIPTION_QUANTITY = 100_000;

/** One prescribed item (decisions §5). */
export const prescriptionItemSchema = z.strictObject({
  name: requiredText(200),
  strength: text(100).optional(),
  form: text(100).optional(),
  quantity: z.number().positive().max(MAX_PRESCRIPTION_QUANTITY),
  unit: text(40).optional(),
  dosage: text(MAX_TEXT).optional(),
  notes: text(MAX_TEXT).optional(),
});
export type PrescriptionItem = z.infer<typeof prescriptionItemSchema>;

export const prescriptionContentSchema = z
  .array(prescriptionItemSchema)
  .min(1, { message: 'At least one item is required' })
  .max(MAX_PRESCRIPTION_ITEMS);

/** Service provider types that may act as a prescription's supplier and shipper. */
export const supplierProviderTypes = ['pharmacy'] as const;
export const shipperProviderTypes = ['courier', 'nurse'] as const;

export interface PickupAssignment {
  pickupByNurse?: boolean | null | undefined;
  nurse?: string | null | undefined;
  shipper?: string | null | undefined;
}

export interface PrescriptionIssue {
  path: 'nurse' | 'shipper' | 'recipient' | 'shipperDriver';
  message: string;
}

/** The people a prescription names, by their user ids. */
export interface PrescriptionPeople {
  issuer?: string | null | undefined;
  recipient?: string | null | undefined;
  nurse?: string | null | undefined;
  shipperDriver?: string | null | undefined;
}

/**
 * Each step of the custody is someone else's: a prescriber does not write for themselves, and neither the
 * prescriber nor the patient carries the medicine (nurse, driver), or one person could sign the whole chain
 * alone. The server applies it to the submission and to the record as it would be after a partial update.
 */
export function separateDutiesIssues(people: PrescriptionPeople): PrescriptionIssue[] {
  const issues: PrescriptionIssue[] = [];
  const { issuer, recipient } = people;
  if (issuer && recipient === issuer) {
    issues.push({ path: 'recipient', message: 'Must be someone other than the issuer' });
  }
  for (const path of ['nurse', 'shipperDriver'] as const) {
    const carrier = people[path];
    if (carrier && (carrier === issuer || carrier === recipient)) {
      issues.push({ path, message: 'Must be someone other than the issuer and the recipient' });
    }
  }
  return issues;
}

/**
 * Spec §5: a nurse is required only when `pickupByNurse` is true, a shipper only when it is not.
 * The server applies it to the submission and to the record as it would be after a partial update.
 */
export function pickupAssignmentIssues(assignment: PickupAssignment): PrescriptionIssue[] {
  if (assignment.pickupByNurse === true) {
    return assignment.nurse ? [] : [{ path: 'nurse', message: 'Required when a nurse picks it up' }];
  }
  return assignment.shipper ? [] : [{ path: 'shipper', message: 'Required unless a nurse picks it up' }];
}

/** Fields covered by the issuer's signed receipt: they change only while the prescription is `new`. */
export const prescriptionSignedFields = ['issuer', 'supplier', 'recipient', 'content'] as const;
/** Once picked up (and after delivery) nothing changes except through the status actions. */
export const prescriptionLockedStatuses: readonly PrescriptionStatus[] = ['picked_up', 'delivered'];

/** The fields of a partial update that may not change in `status`. */
export function lockedPrescriptionFields(status: PrescriptionStatus, fields: readonly string[]): string[] {
  if (status === 'new') return [];
  if (prescriptionLockedStatuses.includes(status)) return [...fields];
  return fields.filter((field) => (prescriptionSignedFields as readonly string[]).includes(field));
}

const logisticsFields = {
  pickupByNurse: z.boolean().optional(),
  nurse: uuidSchema.nullable().optional(),
  shipper: uuidSchema.nullable().optional(),
  shipperDriver: uuidSchema.nullable().optional(),
  pickupAddress: streetAddressSchema.nullable().optional(),
  deliveryAddress: streetAddressSchema.nullable().optional(),
};

/** `POST /api/prescriptions`: a prescription submission. The status starts at `new`. */
export const prescriptionSubmissionSchema = z
  .strictObject({
    issuer: uuidSchema,
    supplier: uuidSchema,
    recipient: uuidSchema,
    content: prescriptionContentSchema,
    ...logisticsFields,
  })
  .superRefine((value, context) => {
    for (const issue of [...pickupAssignmentIssues(value), ...separateDutiesIssues(value)]) {
      context.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
    }
  });
export type PrescriptionSubmission = z.infer<typeof prescriptionSubmissionSchema>;

/** `PATCH /api/prescriptions/{id}`: only the fields sent change; the status changes through actions. */
export const prescriptionUpdateSchema = z.strictObject({
  /** Named only to refuse it with a clear message. */
  status: z
    .never({ error: 'The status changes only through the actions: POST /api/prescriptions/{id}/<action>' })
    .optional(),
  issuer: uuidSchema.optional(),
  supplier: uuidSchema.optional(),
  recipient: uuidSchema.optional(),
  content: prescriptionContentSchema.optional(),
  ...logisticsFields,
});
export type PrescriptionUpdate = z.infer<typeof prescriptionUpdateSchema>;

export const prescriptionSchema = z.object({
  ...recordSchema,
  status: z.enum(prescriptionStatuses),
  issuerId: z.string().nullable(),
  issuerReceiptId: z.string().nullable(),
  pickupByNurse: z.boolean().nullable(),
  nurseId: z.string().nullable(),
  supplierId: z.string().nullable(),
  shipperId: z.string().nullable(),
  shipperDriverId: z.string().nullable(),
  pickupReceiptId: z.string().nullable(),
  recipientId: z.string().nullable(),
  pickupAddress: z.looseObject({}).nullable(),
  deliveryAddress: z.looseObject({}).nullable(),
  content: z.array(z.looseObject({})),
  version: z.number().int(),
  createdByUserId: z.string().nullable(),
  issuer: embedded.nullable().optional(),
  issuerReceipt: embedded.nullable().optional(),
  nurse: embedded.nullable().optional(),
  supplier: embedded.nullable().optional(),
  shipper: embedded.nullable().optional(),
  shipperDriver: embedded.nullable().optional(),
  pickupReceipt: embedded.nullable().optional(),
  recipient: embedded.nullable().optional(),
  createdByUser: embedded.nullable().optional(),
});
export type Prescription = z.infer<typeof prescriptionSchema>;

export const prescriptionListSpec = defineListSpec({
  resource: 'prescriptions',
  filters: {
    id: k.uuid,
    status: k.enum(prescriptionStatuses),
    pickupByNurse: k.boolean,
    'issuer.id': k.ref('users'),
    'issuerReceipt.id': k.ref('documents'),
    'nurse.id': k.ref('users'),
    'supplier.id': k.ref('service-providers'),
    'shipper.id': k.ref('service-providers'),
    'shipperDriver.id': k.ref('users'),
    'pickupReceipt.id': k.ref('documents'),
    'recipient.id': k.ref('users'),
    'createdByUser.id': k.ref('users'),
  },
  search: ['id', 'content.name', 'pickupAddress.city', 'deliveryAddress.city'],
  sort: ['createdAt', 'updatedAt', 'status'],
  relations: [
    'issuer',
    'issuerReceipt',
    'nurse',
    'supplier',
    'shipper',
    'shipperDriver',
    'pickupReceipt',
    'recipient',
    'createdByUser',
  ],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

export const prescriptionEndpoints = resourceEndpoints('/api/prescriptions');

// ---------------------------------------------------------------------------------------------------------
// Status actions (decisions §5): POST /api/prescriptions/{id}/<action>

export const MAX_ACTION_REASON = 500;

/**
 * A plain action kept on a phone without a network says, when it is sent, how long ago it was taken (decision
 * 076): the server records the action's time as its own time less that, beside its time of recording.
 */
const keptForSeconds = keptForSecondsSchema.optional();

/**
 * The status the person saw when they took a plain action: the action applies only while the prescription is
 * still in it, else 409 as for any other conflict. A phone that kept a hold offline while a colleague marked the
 * prescription ready must not put it on hold over their work (decision 093).
 */
const expectedStatus = z.enum(prescriptionStatuses).optional();

/**
 * hold and return may say why; the other plain actions take only `keptForSeconds` and `expectedStatus`; issue
 * and pickup nothing.
 */
export const prescriptionReasonBodySchema = z.strictObject({
  reason: text(MAX_ACTION_REASON).optional(),
  keptForSeconds,
  expectedStatus,
});
export const prescriptionPlainBodySchema = z.strictObject({ keptForSeconds, expectedStatus });
export const prescriptionEmptyBodySchema = z.strictObject({});
export type PrescriptionActionBody = z.infer<typeof prescriptionReasonBodySchema>;
export const actionsWithReason: readonly PrescriptionAction[] = ['hold', 'return'];

export const prescriptionActionPath = (id: string, action: PrescriptionAction) =>
  `/api/prescriptions/${encodeURIComponent(id)}/${action}`;
export const prescriptionSigningPath = (id: string, requestId: string) =>
  `/api/prescriptions/${encodeURIComponent(id)}/signing/${encodeURIComponent(requestId)}`;
export const prescriptionReceiptPath = (id: string, receipt: PrescriptionReceipt) =>
  `/api/prescriptions/${encodeURIComponent(id)}/receipts/${receipt}`;
export const prescriptionHistoryPath = (id: string) => `/api/prescriptions/${encodeURIComponent(id)}/history`;
export const prescriptionViewerPath = '/api/prescriptions/viewer';
export const prescriptionChoicesPath = '/api/prescriptions/choices';
/** Public: the verification of a prescription's signed receipts (the QR code printed on them points here). */
export const prescriptionVerificationPath = (id: string) =>
  `/api/prescriptions/${encodeURIComponent(id)}/verification`;
/** Public: a signed receipt itself, as the platform holds it, to compare with the paper. */
export const prescriptionVerifiedReceiptPath = (id: string, receipt: PrescriptionReceipt) =>
  `${prescriptionVerificationPath(id)}/${receipt}`;

export const prescriptionReceipts = ['issuer', 'pickup'] as const;
export type PrescriptionReceipt = (typeof prescriptionReceipts)[number];

export const prescriptionEndpointPatterns = {
  action: (action: PrescriptionAction) => `/api/prescriptions/:id/${action}`,
  signing: '/api/prescriptions/:id/signing/:requestId',
  receipt: '/api/prescriptions/:id/receipts/:receipt',
  history: '/api/prescriptions/:id/history',
  viewer: '/api/prescriptions/viewer',
  choices: '/api/prescriptions/choices',
  verification: '/api/prescriptions/:id/verification',
  verifiedReceipt: '/api/prescriptions/:id/verification/:receipt',
} as const;

/** 202 of issue and pickup: the phone was asked; the status changes once it signs. */
export const prescriptionSigningStartedSchema = z.object({
  action: z.enum(prescriptionActions),
  requestId: z.string(),
  /** Whose phone was asked: the issuer's for issue (even when an admin asks), the picker's for pickup. */
  signerUserId: z.string(),
  signerName: z.string(),
  bindingMessage: z.string(),
  expiresIn: z.number().int(),
  interval: z.number().int(),
});
export type PrescriptionSigningStarted = z.infer<typeof prescriptionSigningStartedSchema>;

export const prescriptionSigningStatuses = ['pending', 'signed', 'denied', 'expired', 'failed'] as const;

/** Where an action waiting for a signature stands; `prescription` once signed (the transition made). */
export const prescriptionSigningStateSchema = z.object({
  action: z.enum(prescriptionActions),
  requestId: z.string(),
  status: z.enum(prescriptionSigningStatuses),
  expiresIn: z.number().int().optional(),
  message: z.string().optional(),
  /**
   * On a failure because the prescription had moved before the phone's approval came (another courier's pickup
   * was completed first): the status it had then, which `message` tells in words.
   */
  prescriptionStatus: z.enum(prescriptionStatuses).optional(),
  prescription: prescriptionSchema.optional(),
});
export type PrescriptionSigningState = z.infer<typeof prescriptionSigningStateSchema>;

export const prescriptionSigningParamsSchema = z.object({ id: uuidSchema, requestId: uuidSchema });
export const prescriptionReceiptParamsSchema = z.object({
  id: uuidSchema,
  receipt: z.enum(prescriptionReceipts),
});

/** `GET /api/prescriptions/{id}/history`: its audit rows, newest first. */
export const prescriptionHistorySchema = z.object({
  items: z.array(
    z.object({
      at: z.string(),
      action: z.string(),
      actor: z.string().nullable(),
      changes: z.record(z.string(), z.unknown()).nullable(),
    }),
  ),
});
export type PrescriptionHistory = z.infer<typeof prescriptionHistorySchema>;

/** `GET /api/prescriptions/viewer`: who asks, as the shared who-may rule needs it. */
export const prescriptionViewerSchema = z.object({
  userId: z.string().nullable(),
  localRoles: z.array(z.string()),
  employerIds: z.array(z.string()),
  employers: z.array(z.object({ id: z.string(), title: z.string(), type: z.string() })),
  isAdmin: z.boolean(),
});
export type PrescriptionViewerAnswer = z.infer<typeof prescriptionViewerSchema>;

const personChoiceSchema = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
});

/**
 * `GET /api/prescriptions/choices`: what a doctor's prescription form offers. The patients of the command
 * centers the doctor works for (with their town, their first assigned nurse, who may pick up for them, and
 * whether they were discharged: a doctor may still write for them, say for the medicines they go home with), and
 * the pharmacies and courier companies that are enabled (decision 084).
 */
export const prescriptionChoicesSchema = z.object({
  patients: z.array(
    personChoiceSchema.extend({
      /** The name in the local script, as their identity document has it (a Thai name): the form finds it too. */
      localizedName: z.string().nullable(),
      city: z.string().nullable(),
      nurse: personChoiceSchema.nullable(),
      /** Their patient profile's status (null without a profile): a discharged patient is offered last, and named so. */
      status: z.enum(patientStatuses).nullable(),
    }),
  ),
  pharmacies: z.array(z.object({ id: z.string(), title: z.string(), city: z.string().nullable() })),
  couriers: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type PrescriptionChoices = z.infer<typeof prescriptionChoicesSchema>;
/** At most this many patients, and twice as many providers, are offered (the form searches as the doctor types). */
export const MAX_CHOICES = 2000;

/**
 * `GET /api/prescriptions/{id}/verification`, for anyone holding the printed receipt: each signed receipt's
 * verification, as the verifier reports an uploaded file. Nothing the receipts do not carry themselves (no
 * status, no addresses, no one the receipts do not name).
 */
export const prescriptionVerificationSchema = z.object({
  receipts: z.array(
    z.object({
      receipt: z.enum(prescriptionReceipts),
      report: verificationReportSchema,
    }),
  ),
});
export type PrescriptionVerification = z.infer<typeof prescriptionVerificationSchema>;
