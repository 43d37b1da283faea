// The prescriptions feature's texts (namespace `prescriptions`): the pharmacy and prescriptions areas (queues,
// cards, actions and their notices, details) and the admin's prescription pages. Thai in th.ts.
import type { Translation } from '@/lib/i18n/translation.ts';

const prescriptions = {
  tabs: {
    waiting: 'Waiting prescriptions',
    ready: 'Ready prescriptions',
    'picked-up': 'Picked-up prescriptions',
    written: 'Prescriptions you wrote',
    mine: 'Your prescriptions',
  },
  menu: {
    pharmacy: 'Pharmacy menu',
    prescriptions: 'Prescriptions menu',
    waiting: 'Waiting',
    ready: 'Ready',
    'picked-up': 'Picked-up',
    written: 'Written',
    mine: 'Mine',
    logout: 'Logout',
  },
  queue: {
    loading: 'Loading prescriptions',
    loadingViewer: 'Loading',
    noPharmacy: 'You are not employed by a pharmacy.',
    empty: 'No prescriptions here.',
  },
  actions: {
    issue: 'Issue',
    accept: 'Accept',
    hold: 'Hold',
    resume: 'Resume',
    'mark-ready': 'Mark ready',
    pickup: 'Pick up',
    delivered: 'Delivered',
    return: 'Return',
    restock: 'Restock',
  },
  done: {
    issue: 'Issued',
    accept: 'Accepted',
    hold: 'Put on hold',
    resume: 'Resumed',
    'mark-ready': 'Marked ready',
    pickup: 'Picked up',
    delivered: 'Marked delivered',
    return: 'Returned',
    restock: 'Restocked',
  },
  notice: {
    doneTo: '{{done}}: {{subject}}',
    done: '{{done}}.',
  },
  signing: {
    denied: 'The signature was denied on the phone: nothing changed.',
    expired: 'The phone did not answer in time: nothing changed.',
    failed: 'The signature could not be completed.',
    ownPhone: 'the phone',
    theirPhone: "{{name}}'s phone",
    approve: 'Approve on {{phone}} · code {{code}}',
    approveWithTime: 'Approve on {{phone}} · code {{code}} · {{seconds}} s',
    checkFailed: "Could not check the phone's answer: {{message}}",
  },
  card: {
    waited: '{{status}} for {{waited}}',
    prescribedBy: 'Prescribed by ',
    for: 'For ',
    call: 'Call {{name}}: {{phone}}',
    pickUpAt: 'Pick up at',
    deliverTo: 'Deliver to',
    openMap: 'Open map',
    mapOf: 'Open map: {{place}}',
    showDetails: 'Details and history',
    hideDetails: 'Hide details',
  },
  detail: {
    label: 'Prescription detail',
    title: 'Prescription · {{status}}',
    item: 'Item',
    quantity: 'Quantity',
    dosage: 'Dosage',
    pickupAddress: 'Pickup address',
    deliveryAddress: 'Delivery address',
    issuer: 'Issuer',
    recipient: 'Recipient',
    supplier: 'Supplier',
    nurse: 'Nurse',
    shipper: 'Shipper',
    driver: 'Driver',
    signedPrescription: 'Signed prescription',
    pickupReceipt: 'Pickup receipt',
    history: 'History',
  },
} as const;

export default prescriptions;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    prescriptions: Translation<typeof prescriptions>;
  }
}
