// Prescriptions as a resource description: columns (shared with the CSV export), names, addresses and the
// form's fields (the supplier a pharmacy, the shipper a courier or nurse service, as the server checks).
import { prescriptionName } from '@careplane/shared/common/record-labels';
import { prescriptionColumns } from '@careplane/shared/prescriptions/prescriptions.columns';
import {
  prescriptionListSpec,
  shipperProviderTypes,
  supplierProviderTypes,
  type Prescription,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { prescriptionQueries } from './api/prescriptions.queries.ts';

const prescriptions = paths.admin.prescriptions;
const users = paths.admin.users.detail.to;
const providers = (id: string) => paths.admin.serviceProviders.detail.to(id);

export const prescriptionResource = defineResource<Prescription>({
  queries: prescriptionQueries,
  spec: prescriptionListSpec,
  noun: 'prescription',
  title: 'Prescriptions',
  columns: prescriptionColumns,
  recordLabel: (prescription) => prescriptionName(prescription),
  paths: {
    list: prescriptions.list.to,
    detail: prescriptions.detail.to,
    create: () => prescriptions.edit.to(),
    edit: prescriptions.edit.to,
  },
  cellLinks: {
    recipient: (prescription) => (prescription.recipientId ? users(prescription.recipientId) : null),
    issuer: (prescription) => (prescription.issuerId ? users(prescription.issuerId) : null),
    supplier: (prescription) => (prescription.supplierId ? providers(prescription.supplierId) : null),
    pickup: (prescription) =>
      prescription.pickupByNurse
        ? prescription.nurseId
          ? users(prescription.nurseId)
          : null
        : prescription.shipperId
          ? providers(prescription.shipperId)
          : null,
  },
  labels: {
    'issuer.id': 'Issuer',
    'issuerReceipt.id': 'Issuer receipt (document id)',
    'nurse.id': 'Nurse',
    'supplier.id': 'Supplier',
    'shipper.id': 'Shipper',
    'shipperDriver.id': 'Driver',
    'pickupReceipt.id': 'Pickup receipt (document id)',
    'recipient.id': 'Recipient',
    'createdByUser.id': 'Created by',
    pickupByNurse: 'Picked up by a nurse',
    'content.name': 'Item name',
    'pickupAddress.city': 'Pickup city',
    'deliveryAddress.city': 'Delivery city',
  },
  defaultSearch: 'content.name',
  phoneColumns: ['content', 'status'],
  detailRelations: prescriptionListSpec.relations,
});

export const prescriptionFields: readonly FieldSpec[] = [
  {
    kind: 'ref',
    name: 'issuer',
    label: 'Issuer',
    resource: 'users',
    filters: ['localRoles~doctor'],
    description: 'A doctor',
    required: true,
  },
  {
    kind: 'ref',
    name: 'recipient',
    label: 'Recipient',
    resource: 'users',
    filters: ['localRoles~patient'],
    description: 'A patient',
    required: true,
  },
  {
    kind: 'ref',
    name: 'supplier',
    label: 'Supplier',
    resource: 'service-providers',
    filters: [`type~${supplierProviderTypes.join(',')}`],
    description: 'A pharmacy',
    required: true,
  },
  { kind: 'switch', name: 'pickupByNurse', label: 'Picked up by a nurse' },
  {
    kind: 'ref',
    name: 'nurse',
    label: 'Nurse',
    resource: 'users',
    filters: ['localRoles~nurse'],
    description: 'Required when a nurse picks it up',
  },
  {
    kind: 'ref',
    name: 'shipper',
    label: 'Shipper',
    resource: 'service-providers',
    filters: [`type~${shipperProviderTypes.join(',')}`],
    description: 'A courier or nurse service; required unless a nurse picks it up',
  },
  {
    kind: 'ref',
    name: 'shipperDriver',
    label: 'Driver',
    resource: 'users',
    filters: ['localRoles~courier'],
  },
  {
    kind: 'list',
    name: 'content',
    label: 'Content',
    itemLabel: 'Item',
    required: true,
    fields: [
      { kind: 'text', name: 'name', label: 'Name', required: true },
      { kind: 'text', name: 'strength', label: 'Strength' },
      { kind: 'text', name: 'form', label: 'Form' },
      { kind: 'number', name: 'quantity', label: 'Quantity', required: true, min: 0 },
      { kind: 'text', name: 'unit', label: 'Unit' },
      { kind: 'textarea', name: 'dosage', label: 'Dosage' },
      { kind: 'textarea', name: 'notes', label: 'Notes' },
    ],
  },
  { kind: 'address', name: 'pickupAddress', label: 'Pickup address' },
  { kind: 'address', name: 'deliveryAddress', label: 'Delivery address' },
];
