// Prescriptions as a generic resource: table, contract schemas, list spec bound to SQL.
import { sql } from 'drizzle-orm';
import {
  prescriptionEndpoints,
  prescriptionListSpec,
  prescriptionSchema,
  prescriptionSubmissionSchema,
  prescriptionUpdateSchema,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { prescriptionColumns } from '@careplane/shared/prescriptions/prescriptions.columns';
import { prescriptions } from '@/db/schema/index.js';
import { defineResource } from '@/lib/resources/definition.js';
import { bindListSpec, column } from '@/lib/resources/filters.js';

/** Body fields naming a related record, and their columns. */
export const prescriptionReferences = {
  issuer: 'issuerId',
  nurse: 'nurseId',
  supplier: 'supplierId',
  shipper: 'shipperId',
  shipperDriver: 'shipperDriverId',
  recipient: 'recipientId',
} as const;

export const prescriptionsResource = defineResource({
  name: 'prescriptions',
  label: 'Prescription',
  entity: 'prescriptions',
  table: prescriptions,
  idColumn: prescriptions.id,
  path: prescriptionEndpoints.list,
  schemas: {
    create: prescriptionSubmissionSchema,
    update: prescriptionUpdateSchema,
    item: prescriptionSchema,
  },
  references: prescriptionReferences,
  createdByColumn: 'createdByUserId',
  csv: { columns: prescriptionColumns },
  list: {
    spec: prescriptionListSpec,
    query: bindListSpec(prescriptionListSpec, {
      idColumn: prescriptions.id,
      filters: {
        id: column(prescriptions.id),
        status: column(prescriptions.status),
        pickupByNurse: column(prescriptions.pickupByNurse),
        'issuer.id': column(prescriptions.issuerId),
        'issuerReceipt.id': column(prescriptions.issuerReceiptId),
        'nurse.id': column(prescriptions.nurseId),
        'supplier.id': column(prescriptions.supplierId),
        'shipper.id': column(prescriptions.shipperId),
        'shipperDriver.id': column(prescriptions.shipperDriverId),
        'pickupReceipt.id': column(prescriptions.pickupReceiptId),
        'recipient.id': column(prescriptions.recipientId),
        'createdByUser.id': column(prescriptions.createdByUserId),
      },
      search: {
        id: prescriptions.id,
        'content.name': sql`jsonb_path_query_array(${prescriptions.content}, '$[*].name')`,
        'pickupAddress.city': sql`${prescriptions.pickupAddress} ->> 'city'`,
        'deliveryAddress.city': sql`${prescriptions.deliveryAddress} ->> 'city'`,
      },
      sort: {
        createdAt: prescriptions.createdAt,
        updatedAt: prescriptions.updatedAt,
        status: prescriptions.status,
      },
    }),
  },
});
