// Prescriptions and the signed documents that travel with them.
import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { actionKeyIndexes, actionKeyColumns } from './action-keys.js';
import { bytea, createdAt, id, updatedAt } from './columns.js';
import { documentFiles, documentSignerCertificates } from './documents.js';
import { defineLink } from './links.js';
import { serviceProviders } from './organisations.js';
import { users } from './users.js';

export const documents = pgTable(
  'documents',
  {
    id: id(),
    title: text('title').notNull().default('Document'),
    isSigned: boolean('is_signed').notNull().default(true),
    signingPartiesMetadata: jsonb('signing_parties_metadata')
      .$type<Record<string, unknown>[]>()
      .notNull()
      .default([]),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The uploaded file; null for a document without one (a receipt whose file is made later). */
    originalSha256: text('original_sha256').references(() => documentFiles.sha256),
    /** The latest signed revision; null until the first signature. */
    signedSha256: text('signed_sha256').references(() => documentFiles.sha256),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('documents_created_by_idx').on(t.createdByUserId),
    index('documents_original_sha256_idx').on(t.originalSha256),
    index('documents_signed_sha256_idx').on(t.signedSha256),
  ],
);

/** The users asked to sign a document (a user does not list the documents they are asked to sign). */
export const documentSigningParties = defineLink(
  'document_signing_parties',
  { column: 'documentId', references: documents, list: 'signingParties' },
  { column: 'userId', references: users },
);

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type DocumentSigningStatus = 'pending' | 'signed' | 'denied' | 'expired' | 'failed';

/**
 * A signature asked of a phone. Its id is the authenticator request's id. What was prepared is kept as its
 * inputs (the revision, the time, the certificate) and the signed attributes: preparing is deterministic, so
 * the server prepares again to complete instead of keeping the prepared file.
 */
export const documentSigningRequests = pgTable(
  'document_signing_requests',
  {
    id: uuid('id').primaryKey(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    identityId: uuid('identity_id').notNull(),
    keyId: text('key_id').notNull(),
    certificateFingerprint: text('certificate_fingerprint').notNull(),
    /** SHA-256 of the revision the signature was prepared on: completing it on another one is refused. */
    baseSha256: text('base_sha256').notNull(),
    signingTime: at('signing_time').notNull(),
    /** The name written into the signature dictionary (/Name). */
    signerName: text('signer_name').notNull(),
    signedAttributes: bytea('signed_attributes').notNull(),
    bindingMessage: text('binding_message').notNull(),
    status: text('status').$type<DocumentSigningStatus>().notNull().default('pending'),
    failure: text('failure'),
    expiresAt: at('expires_at').notNull(),
    completedAt: at('completed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('document_signing_requests_document_idx').on(t.documentId),
    index('document_signing_requests_user_idx').on(t.userId),
    // The completion sweeper's work list: the few requests still waiting for a phone.
    index('document_signing_requests_pending_idx')
      .on(t.createdAt)
      .where(sql`status = 'pending'`),
    foreignKey({
      name: 'document_signing_requests_certificate_fk',
      columns: [t.certificateFingerprint],
      foreignColumns: [documentSignerCertificates.fingerprint],
    }),
  ],
);

const userRef = (name: string) => uuid(name).references(() => users.id, { onDelete: 'set null' });
const providerRef = (name: string) =>
  uuid(name).references(() => serviceProviders.id, { onDelete: 'set null' });
const documentRef = (name: string) => uuid(name).references(() => documents.id, { onDelete: 'set null' });

export const prescriptions = pgTable(
  'prescriptions',
  {
    id: id(),
    status: text('status').notNull().default('new'),
    issuerId: userRef('issuer_id'),
    issuerReceiptId: documentRef('issuer_receipt_id'),
    pickupByNurse: boolean('pickup_by_nurse'),
    nurseId: userRef('nurse_id'),
    supplierId: providerRef('supplier_id'),
    shipperId: providerRef('shipper_id'),
    shipperDriverId: userRef('shipper_driver_id'),
    pickupReceiptId: documentRef('pickup_receipt_id'),
    recipientId: userRef('recipient_id'),
    pickupAddress: jsonb('pickup_address').$type<Record<string, unknown>>(),
    deliveryAddress: jsonb('delivery_address').$type<Record<string, unknown>>(),
    content: jsonb('content').$type<Record<string, unknown>[]>().notNull().default([]),
    /** Optimistic concurrency: every status change and every edit bumps it. */
    version: integer('version').notNull().default(1),
    createdByUserId: userRef('created_by_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('prescriptions_status_idx').on(t.status, t.id),
    index('prescriptions_issuer_idx').on(t.issuerId),
    index('prescriptions_nurse_idx').on(t.nurseId),
    index('prescriptions_supplier_status_idx').on(t.supplierId, t.status),
    index('prescriptions_shipper_status_idx').on(t.shipperId, t.status),
    index('prescriptions_shipper_driver_idx').on(t.shipperDriverId),
    index('prescriptions_recipient_idx').on(t.recipientId),
    index('prescriptions_created_by_idx').on(t.createdByUserId),
    index('prescriptions_created_at_idx').on(t.createdAt, t.id),
  ],
);

/**
 * A status action waiting for a phone's signature (issue, pickup): the transition happens when the signature
 * is in. Its id is the document signing request's id.
 */
export const prescriptionSignings = pgTable(
  'prescription_signings',
  {
    id: uuid('id').primaryKey(),
    prescriptionId: uuid('prescription_id')
      .notNull()
      .references(() => prescriptions.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    /**
     * The generated receipt the phone is asked to sign; null once the action ended without it (denied,
     * expired, failed, or another was faster): the receipt of an action that did not happen is withdrawn.
     */
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    /** Who asked (the audit's actor) and whose phone signs. */
    requestedByUserId: uuid('requested_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    signerUserId: uuid('signer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * How the action ended, settled in the transaction that ends its document signature: signed (the
     * transition was made), failed (the prescription had moved on meanwhile), denied or expired.
     */
    status: text('status').$type<DocumentSigningStatus>().notNull().default('pending'),
    /**
     * The prescription's version the receipt was made from: the action completes only if the prescription is
     * still that version, so a signature never lands on content (or a shipper) the phone did not show. Null
     * on actions asked before it was kept.
     */
    prescriptionVersion: integer('prescription_version'),
    failure: text('failure'),
    completedAt: at('completed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('prescription_signings_prescription_idx').on(t.prescriptionId, t.createdAt),
    index('prescription_signings_pending_idx')
      .on(t.createdAt)
      .where(sql`status = 'pending'`),
  ],
);

/** A plain status action sent with an Idempotency-Key (decision 046): see action-keys.ts. */
export const prescriptionActionKeys = pgTable(
  'prescription_action_keys',
  {
    ...actionKeyColumns(),
    prescriptionId: uuid('prescription_id')
      .notNull()
      .references(() => prescriptions.id, { onDelete: 'cascade' }),
  },
  (t) => actionKeyIndexes('prescription_action_keys', 'prescription', t, t.prescriptionId),
);
