// The columns of the prescriptions list: the console's table and the CSV export read these.
import { defineColumns } from '../common/list-columns.ts';
import type { SortPath } from '../common/list-spec.ts';
import { createdOn, personName, textOf, titleOf } from '../common/record-labels.ts';
import type { Prescription, prescriptionListSpec } from './prescriptions.contract.ts';

/** What was prescribed: each item's name, strength and quantity with unit. */
export const prescriptionContentText = (prescription: Pick<Prescription, 'content'>) =>
  prescription.content
    .map((item) => {
      const amount = [textOf(item.quantity), textOf(item.unit)].filter(Boolean).join(' ');
      return [textOf(item.name), textOf(item.strength), amount ? `× ${amount}` : '']
        .filter(Boolean)
        .join(' ');
    })
    .join(', ');

export const prescriptionColumns = defineColumns<Prescription, SortPath<typeof prescriptionListSpec>>()([
  { key: 'content', title: 'Content', value: prescriptionContentText, truncate: 40 },
  {
    key: 'status',
    title: 'Status',
    value: (prescription, labels) => labels.enumText('prescriptionStatus', prescription.status),
    sort: 'status',
  },
  {
    key: 'recipient',
    title: 'Recipient',
    value: (prescription) => personName(prescription.recipient),
    relations: ['recipient'],
    truncate: 40,
  },
  {
    key: 'issuer',
    title: 'Issuer',
    value: (prescription) => personName(prescription.issuer),
    relations: ['issuer'],
    truncate: 40,
  },
  {
    key: 'supplier',
    title: 'Supplier',
    value: (prescription) => titleOf(prescription.supplier),
    relations: ['supplier'],
    truncate: 40,
  },
  {
    key: 'pickup',
    title: 'Picked up by',
    value: (prescription) =>
      prescription.pickupByNurse ? personName(prescription.nurse) : titleOf(prescription.shipper),
    relations: ['nurse', 'shipper'],
    truncate: 40,
  },
  {
    key: 'pickupByNurse',
    title: 'By nurse',
    value: (prescription, labels) => labels.yesNo(prescription.pickupByNurse),
  },
  {
    key: 'deliveryCity',
    title: 'Delivery city',
    value: (prescription) => textOf(prescription.deliveryAddress?.city),
    truncate: 20,
  },
  { key: 'createdAt', title: 'Created', value: createdOn, sort: 'createdAt' },
]);
