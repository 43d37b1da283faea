// Users and patients as resource descriptions: columns (shared with the CSV export), names, addresses,
// filter labels and the form's fields.
import {
  genders,
  globalRoles,
  identityDocumentTypes,
  localUserRoles,
  registrationStatuses,
} from '@careplane/shared/common/enums';
import { personName } from '@careplane/shared/common/record-labels';
import { patientColumns, userColumns } from '@careplane/shared/users/users.columns';
import { userListSpec, type User } from '@careplane/shared/users/users.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { userQueries } from './api/users.queries.ts';

const users = paths.admin.users;

const labels = {
  name: 'Name',
  'patientProfile.id': 'Patient profile',
  'commandCenters.id': 'Command center',
  'employers.id': 'Employer',
  'assignedNurses.id': 'Assigned nurse',
  'createdByUser.id': 'Created by',
  primaryDomain: 'Primary domain',
  masterId: 'Master ID',
  isVerified: 'Verified',
  isBlocked: 'Blocked',
  registrationCompleted: 'Registration completed',
};

export const userLabel = (user: User) => personName(user) || user.username;

export const userResource = defineResource<User>({
  queries: userQueries,
  spec: userListSpec,
  noun: 'user',
  title: 'Users',
  columns: userColumns,
  recordLabel: userLabel,
  paths: { list: users.list.to, detail: users.detail.to, create: () => users.edit.to(), edit: users.edit.to },
  labels,
  defaultSearch: 'name',
  phoneColumns: ['name', 'localRoles'],
  detailRelations: userListSpec.relations,
});

export const patientResource = defineResource<User>({
  ...userResource,
  noun: 'patient',
  title: 'Patients',
  columns: patientColumns,
  paths: {
    list: paths.admin.patients.list.to,
    detail: users.detail.to,
    create: () => `${users.edit.to()}?role=patient`,
    edit: users.edit.to,
  },
  fixedFilters: { localRoles: 'patient' },
  exportView: 'patients',
  phoneColumns: ['name', 'status'],
});

export const userFormRelations = ['employers', 'assignedNurses', 'commandCenters'] as const;

export const userFields: readonly FieldSpec[] = [
  {
    kind: 'text',
    name: 'username',
    label: 'Username',
    description: 'name@domain: the sign-in identity of the person',
    required: true,
    only: 'create',
  },
  { kind: 'text', name: 'title', label: 'Title' },
  { kind: 'text', name: 'firstName', label: 'First name' },
  { kind: 'text', name: 'lastName', label: 'Last name' },
  { kind: 'email', name: 'email', label: 'Email' },
  { kind: 'tel', name: 'phoneNumber', label: 'Phone number' },
  { kind: 'multiselect', name: 'localRoles', label: 'Local roles', options: localUserRoles },
  { kind: 'multiselect', name: 'roles', label: 'Global roles', options: globalRoles },
  { kind: 'text', name: 'identityAssuranceLevel', label: 'Identity assurance level' },
  { kind: 'select', name: 'registrationStatus', label: 'Registration status', options: registrationStatuses },
  { kind: 'switch', name: 'isVerified', label: 'Verified' },
  { kind: 'switch', name: 'isBlocked', label: 'Blocked' },
  { kind: 'switch', name: 'registrationCompleted', label: 'Registration completed' },
  { kind: 'text', name: 'masterId', label: 'Master ID', only: 'create' },
  { kind: 'refList', name: 'employers', label: 'Employers', resource: 'service-providers' },
  {
    kind: 'refList',
    name: 'assignedNurses',
    label: 'Assigned nurses',
    resource: 'users',
    filters: ['localRoles~nurse'],
  },
  { kind: 'refList', name: 'commandCenters', label: 'Command centers', resource: 'command-centers' },
  { kind: 'address', name: 'address', label: 'Address', asList: true },
  {
    kind: 'group',
    name: 'additionalInfo',
    label: 'Identity document and personal details',
    fields: [
      { kind: 'text', name: 'localizedFirstName', label: 'Localized first name' },
      { kind: 'text', name: 'localizedLastName', label: 'Localized last name' },
      {
        kind: 'select',
        name: 'identityDocumentType',
        label: 'Identity document type',
        options: identityDocumentTypes,
      },
      { kind: 'text', name: 'identityDocumentNumber', label: 'Identity document number' },
      { kind: 'date', name: 'identityDocumentIssueDate', label: 'Issued on' },
      { kind: 'date', name: 'identityDocumentExpiryDate', label: 'Expires on' },
      { kind: 'switch', name: 'identityDocumentIsValidIndefinitely', label: 'Valid indefinitely' },
      { kind: 'date', name: 'dateOfBirth', label: 'Date of birth' },
      { kind: 'select', name: 'gender', label: 'Gender', options: genders },
    ],
  },
  { kind: 'json', name: 'matrixIdentity', label: 'Matrix identity' },
];
