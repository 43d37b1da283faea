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
import i18next from 'i18next';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { prescriptionQueries } from './api/prescriptions.queries.ts';
import { historyEventText, historyTimeText } from './prescription-history.ts';
import { prescriptionContentField } from './prescription-content-field.ts';

const prescriptions = paths.admin.prescriptions;
const users = paths.admin.users.detail.to;
const providers = (id: string) => paths.admin.serviceProviders.detail.to(id);

/** Fields the history names that the form's fields do not (the items have an editor of their own). */
const actionFieldKeys = [
  'reason',
  'performedAt',
  'issuerReceipt',
  'pickupReceipt',
  'signer',
  'requestedBy',
  'failure',
] as const;
const historyLabels = {
  content: () => i18next.t('prescriptions:admin.fields.content'),
  ...Object.fromEntries(
    actionFieldKeys.map((key) => [key, () => i18next.t(`prescriptions:historyFields.${key}`)]),
  ),
};

export const prescriptionResource = defineResource<Prescription>({
  queries: prescriptionQueries,
  spec: prescriptionListSpec,
  noun: () => i18next.t('prescriptions:admin.noun'),
  title: () => i18next.t('prescriptions:admin.title'),
  columns: prescriptionColumns,
  columnTitles: {
    content: () => i18next.t('prescriptions:admin.columns.content'),
    status: () => i18next.t('prescriptions:admin.columns.status'),
    recipient: () => i18next.t('prescriptions:admin.columns.recipient'),
    issuer: () => i18next.t('prescriptions:admin.columns.issuer'),
    supplier: () => i18next.t('prescriptions:admin.columns.supplier'),
    pickup: () => i18next.t('prescriptions:admin.columns.pickup'),
    pickupByNurse: () => i18next.t('prescriptions:admin.columns.pickupByNurse'),
    deliveryCity: () => i18next.t('prescriptions:admin.columns.deliveryCity'),
    createdAt: () => i18next.t('prescriptions:admin.columns.createdAt'),
  },
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
    ...historyLabels,
    status: () => i18next.t('prescriptions:admin.columns.status'),
    'issuer.id': () => i18next.t('prescriptions:admin.labels.issuer'),
    'issuerReceipt.id': () => i18next.t('prescriptions:admin.labels.issuerReceipt'),
    'nurse.id': () => i18next.t('prescriptions:admin.labels.nurse'),
    'supplier.id': () => i18next.t('prescriptions:admin.labels.supplier'),
    'shipper.id': () => i18next.t('prescriptions:admin.labels.shipper'),
    'shipperDriver.id': () => i18next.t('prescriptions:admin.labels.driver'),
    'pickupReceipt.id': () => i18next.t('prescriptions:admin.labels.pickupReceipt'),
    'recipient.id': () => i18next.t('prescriptions:admin.labels.recipient'),
    'createdByUser.id': () => i18next.t('prescriptions:admin.labels.createdBy'),
    pickupByNurse: () => i18next.t('prescriptions:admin.labels.pickupByNurse'),
    'content.name': () => i18next.t('prescriptions:admin.labels.itemName'),
    'pickupAddress.city': () => i18next.t('prescriptions:admin.labels.pickupCity'),
    'deliveryAddress.city': () => i18next.t('prescriptions:admin.labels.deliveryCity'),
  },
  optionLabels: { status: (status) => enumLabel('prescriptionStatus', status) },
  defaultSearch: 'content.name',
  phoneColumns: ['content', 'status'],
  detailRelations: prescriptionListSpec.relations,
  history: {
    event: (action) => historyEventText(action, i18next.getFixedT(null, 'prescriptions')),
    when: (entry) => historyTimeText(entry, i18next.getFixedT(null, 'prescriptions')),
    // The audit's bookkeeping: the key that makes a retried action answer once, the signature request's and the
    // draft receipt's ids (the receipt itself is named once signed).
    unlisted: ['idempotencyKey', 'requestId', 'documentId'],
  },
  formFields: () => prescriptionFields,
});

export const prescriptionFields: readonly FieldSpec[] = [
  {
    kind: 'ref',
    name: 'issuer',
    label: () => i18next.t('prescriptions:admin.fields.issuer'),
    resource: 'users',
    filters: ['localRoles~doctor'],
    description: () => i18next.t('prescriptions:admin.fields.issuerHint'),
    required: true,
  },
  {
    kind: 'ref',
    name: 'recipient',
    label: () => i18next.t('prescriptions:admin.fields.recipient'),
    resource: 'users',
    filters: ['localRoles~patient'],
    description: () => i18next.t('prescriptions:admin.fields.recipientHint'),
    required: true,
  },
  {
    kind: 'ref',
    name: 'supplier',
    label: () => i18next.t('prescriptions:admin.fields.supplier'),
    resource: 'service-providers',
    filters: [`type~${supplierProviderTypes.join(',')}`],
    description: () => i18next.t('prescriptions:admin.fields.supplierHint'),
    required: true,
  },
  {
    kind: 'switch',
    name: 'pickupByNurse',
    label: () => i18next.t('prescriptions:admin.fields.pickupByNurse'),
  },
  {
    kind: 'ref',
    name: 'nurse',
    label: () => i18next.t('prescriptions:admin.fields.nurse'),
    resource: 'users',
    filters: ['localRoles~nurse'],
    description: () => i18next.t('prescriptions:admin.fields.nurseHint'),
  },
  {
    kind: 'ref',
    name: 'shipper',
    label: () => i18next.t('prescriptions:admin.fields.shipper'),
    resource: 'service-providers',
    filters: [`type~${shipperProviderTypes.join(',')}`],
    description: () => i18next.t('prescriptions:admin.fields.shipperHint'),
  },
  {
    kind: 'ref',
    name: 'shipperDriver',
    label: () => i18next.t('prescriptions:admin.fields.driver'),
    resource: 'users',
    filters: ['localRoles~courier'],
  },
  prescriptionContentField,
  {
    kind: 'address',
    name: 'pickupAddress',
    label: () => i18next.t('prescriptions:admin.fields.pickupAddress'),
  },
  {
    kind: 'address',
    name: 'deliveryAddress',
    label: () => i18next.t('prescriptions:admin.fields.deliveryAddress'),
  },
];
