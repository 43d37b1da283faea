// The command centers' texts (namespace `command-centers`): the admin list, form and detail of a center, and
// the supervisor's command-center view. Thai in th.ts, with the same keys.
import type { Translation } from '@/lib/i18n/translation.ts';

const commandCenters = {
  noun: 'command center',
  title: 'Command Centers',
  columns: {
    title: 'Title',
    address: 'Address',
    assignedUsers: 'Assigned users',
    devices: 'Devices',
    createdAt: 'Created',
  },
  labels: {
    id: 'ID',
    title: 'Title',
    assignedUser: 'Assigned user',
    device: 'Device',
    createdBy: 'Created by',
    addressTitle: 'Address title',
    street: 'Address street',
    district: 'Address district',
    city: 'Address city',
    county: 'Address county',
    postalCode: 'Postal code',
    country: 'Address country',
  },
  fields: {
    title: 'Title',
    assignedUsers: 'Assigned users',
    address: 'Address',
  },
  detail: {
    section: 'Command center',
    title: 'Title',
    address: 'Address',
    addressTitle: 'Address title',
    county: 'County or province',
    latLng: 'Latitude, longitude',
    created: 'Created',
    createdBy: 'Created by',
    assignedUsers: 'Assigned users',
    noUsers: 'No users are assigned.',
    devices: 'Devices',
    noDevices: 'No devices.',
    itsUsers: 'Its users in the users list',
    itsDevices: 'Its devices in the devices list',
  },
  view: {
    title: 'Command center',
    notAssigned: 'You are not assigned to a command center.',
    notAllowed:
      'You may not open the command center: it is for admins and for the care teams of command centers (supervisors, nurses and doctors).',
    loading: 'Loading…',
    openAlerts: 'Open alerts',
    newAlert: 'New alert',
    noOpenAlerts: 'No open alerts.',
    jobs: 'Jobs',
    noJobs: 'No jobs.',
    device: 'Device',
    purpose: 'Purpose',
    status: 'Status',
    users: 'Users',
    name: 'Name',
    roles: 'Roles',
    actions: 'Actions',
    noUsers: 'No users.',
    devices: 'Devices',
    deviceRole: 'Role',
    assignedUser: 'Assigned to',
    noDevices: 'No devices.',
    sendAlert: 'Send an alert',
    alertSent: 'An alert was sent to {{name}}.',
  },
  patient: {
    back: 'Back to the command center',
    person: 'This person',
    notFoundTitle: 'Not in your command centers',
    notFound:
      'This person is not among the users of your command centers, or no longer exists. Their alerts and readings are not yours to read.',
    vitalSigns: 'Vital signs',
    iotDevice: 'IoT device',
    noIotDevices: 'No IoT device sends readings for this person.',
    latest: 'Latest reading: {{reading}}, taken {{taken}}.',
    noReadings: 'This device has sent no readings yet.',
    readAgain: 'Readings are read again every 30 seconds while this page is open.',
  },
} as const;

export default commandCenters;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    'command-centers': Translation<typeof commandCenters>;
  }
}
