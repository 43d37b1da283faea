// Prescriptions and the signed documents that travel with them.
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('documents_created_by_idx').on(t.createdByUserId)],
);

/** documents.signingParties */
export const documentSigningParties = pgTable(
  'document_signing_parties',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.userId] }),
    index('document_signing_parties_user_idx').on(t.userId),
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
    /** Optimistic concurrency: every status change bumps it. */
    version: integer('version').notNull().default(1),
    createdByUserId: userRef('created_by_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('prescriptions_status_idx').on(t.status),
    index('prescriptions_issuer_idx').on(t.issuerId),
    index('prescriptions_nurse_idx').on(t.nurseId),
    index('prescriptions_supplier_status_idx').on(t.supplierId, t.status),
    index('prescriptions_shipper_status_idx').on(t.shipperId, t.status),
    index('prescriptions_shipper_driver_idx').on(t.shipperDriverId),
    index('prescriptions_recipient_idx').on(t.recipientId),
    index('prescriptions_created_by_idx').on(t.createdByUserId),
    index('prescriptions_created_at_idx').on(t.createdAt),
  ],
);
