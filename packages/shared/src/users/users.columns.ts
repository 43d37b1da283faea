// The columns of the users and patients lists: the console's tables and the CSV export read these.
import { defineColumns } from '../common/list-columns.ts';
import type { SortPath } from '../common/list-spec.ts';
import { createdOn, namesOf, personName, textOf, titleOf, workstationName } from '../common/record-labels.ts';
import type { User, userListSpec } from './users.contract.ts';

type UserSort = SortPath<typeof userListSpec>;

export const userColumns = defineColumns<User, UserSort>()([
  { key: 'name', title: 'Name', value: (user) => personName(user), sort: 'lastName', truncate: 40 },
  { key: 'username', title: 'Username', value: (user) => user.username, sort: 'username', truncate: 40 },
  { key: 'email', title: 'Email', value: (user) => user.email ?? '', sort: 'email', truncate: 40 },
  { key: 'phoneNumber', title: 'Phone', value: (user) => user.phoneNumber ?? '' },
  {
    key: 'localRoles',
    title: 'Local roles',
    value: (user, labels) => labels.enumListText('role', user.localRoles),
    truncate: 40,
  },
  {
    key: 'patientStatus',
    title: 'Patient status',
    value: (user, labels) => labels.enumText('patientStatus', user.patientProfile?.status),
    relations: ['patientProfile'],
  },
  {
    key: 'commandCenters',
    title: 'Command centers',
    value: (user) => namesOf(user.commandCenters, titleOf),
    relations: ['commandCenters'],
    truncate: 40,
  },
  { key: 'isBlocked', title: 'Blocked', value: (user, labels) => labels.yesNo(user.isBlocked) },
  { key: 'createdAt', title: 'Created', value: createdOn, sort: 'createdAt' },
]);

/** Emergency contacts as "name (relationship, phone)". */
const contactsText = (contacts: readonly Record<string, unknown>[] | undefined) =>
  (contacts ?? [])
    .map((contact) => {
      const details = [textOf(contact.relationship), textOf(contact.phoneNumber)].filter(Boolean).join(', ');
      return details ? `${textOf(contact.name)} (${details})` : textOf(contact.name);
    })
    .filter(Boolean)
    .join('; ');

/** Patients are users with the patient role; their profile carries the status and emergency contacts. */
export const patientColumns = defineColumns<User, UserSort>()([
  { key: 'name', title: 'Name', value: (user) => personName(user), sort: 'lastName', truncate: 40 },
  { key: 'username', title: 'Username', value: (user) => user.username, sort: 'username', truncate: 40 },
  {
    key: 'status',
    title: 'Status',
    value: (user, labels) => labels.enumText('patientStatus', user.patientProfile?.status),
    relations: ['patientProfile'],
  },
  {
    key: 'emergencyContacts',
    title: 'Emergency contacts',
    value: (user) =>
      contactsText(user.patientProfile?.emergencyContacts as Record<string, unknown>[] | undefined),
    relations: ['patientProfile'],
    truncate: 40,
  },
  {
    key: 'assignedNurses',
    title: 'Nurses',
    value: (user) => namesOf(user.assignedNurses, personName),
    relations: ['assignedNurses'],
    truncate: 40,
  },
  {
    key: 'workstations',
    title: 'Workstations',
    value: (user) => namesOf(user.assignedToWorkstations, workstationName),
    relations: ['assignedToWorkstations'],
    truncate: 40,
  },
  { key: 'phoneNumber', title: 'Phone', value: (user) => user.phoneNumber ?? '' },
  { key: 'createdAt', title: 'Created', value: createdOn, sort: 'createdAt' },
]);
