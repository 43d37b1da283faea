// Users and patients as resource descriptions: columns (shared with the CSV export), names, addresses,
// filter labels and the form's fields.
import {
  assuranceLevels,
  genders,
  globalRoles,
  identityDocumentTypes,
  localUserRoles,
  registrationStatuses,
} from '@careplane/shared/common/enums';
import i18next from 'i18next';
import { localizedPersonName, personName } from '@careplane/shared/common/record-labels';
import { patientColumns, userColumns } from '@careplane/shared/users/users.columns';
import { userListSpec, type User } from '@careplane/shared/users/users.contract';
import { paths } from '@/config/paths.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { defineResource } from '@/lib/resource-kit/resource.ts';
import { userQueries } from './api/users.queries.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';

const users = paths.admin.users;

const labels = {
  name: () => i18next.t('users:labels.name'),
  'patientProfile.id': () => i18next.t('users:labels.patientProfile'),
  'patientProfile.status': () => i18next.t('users:columns.patientStatus'),
  'commandCenters.id': () => i18next.t('users:labels.commandCenter'),
  'employers.id': () => i18next.t('users:labels.employer'),
  'assignedNurses.id': () => i18next.t('users:labels.assignedNurse'),
  'createdByUser.id': () => i18next.t('users:labels.createdBy'),
  primaryDomain: () => i18next.t('users:labels.primaryDomain'),
  masterId: () => i18next.t('users:labels.masterId'),
  // What the history of a user's sign-in records (a revoked phone, a code issued).
  phone: () => i18next.t('users:labels.phone'),
  label: () => i18next.t('users:labels.phoneName'),
  signInsEnded: () => i18next.t('users:labels.signInsEnded'),
  identityProvisioned: () => i18next.t('users:labels.identityProvisioned'),
  isVerified: () => i18next.t('users:labels.verified'),
  isBlocked: () => i18next.t('users:labels.blocked'),
  registrationCompleted: () => i18next.t('users:labels.registrationCompleted'),
  roles: () => i18next.t('users:detail.roles'),
  localRoles: () => i18next.t('users:fields.localRoles'),
  username: () => i18next.t('users:fields.username'),
  firstName: () => i18next.t('users:fields.firstName'),
  lastName: () => i18next.t('users:fields.lastName'),
  email: () => i18next.t('users:fields.email'),
  phoneNumber: () => i18next.t('users:fields.phoneNumber'),
};

/** Column headers in the reader's language, from its catalog (Thai's are the CSV export's Thai headers). */
const columnTitles = Object.fromEntries(
  (
    [
      'name',
      'username',
      'email',
      'phoneNumber',
      'localRoles',
      'patientStatus',
      'commandCenters',
      'isBlocked',
      'createdAt',
      'status',
      'emergencyContacts',
      'assignedNurses',
      'workstations',
    ] as const
  ).map((key) => [key, () => i18next.t(`users:columns.${key}`)]),
);

export const userLabel = (user: User) => personName(user) || user.username;

/** What the audit records of a user's sign-in besides the kit's create, update and delete. */
const userEvents = ['sign-in', 'enrollment', 'revoke-phone'] as const;
const isUserEvent = (action: string): action is (typeof userEvents)[number] =>
  (userEvents as readonly string[]).includes(action);

export const userResource = defineResource<User>({
  queries: userQueries,
  spec: userListSpec,
  noun: () => i18next.t('users:noun'),
  title: () => i18next.t('users:title'),
  columns: userColumns,
  columnTitles,
  recordLabel: userLabel,
  // The name search matches a name in the local script too: the list shows it under the Latin one.
  cellNotes: {
    name: (user) => {
      const local = localizedPersonName(user);
      return local && local !== personName(user) ? local : null;
    },
  },
  paths: { list: users.list.to, detail: users.detail.to, create: () => users.edit.to(), edit: users.edit.to },
  labels,
  optionLabels: {
    roles: (role) => enumLabel('role', role),
    localRoles: (role) => enumLabel('role', role),
    'patientProfile.status': (status) => enumLabel('patientStatus', status),
  },
  defaultSearch: 'name',
  phoneColumns: ['name', 'localRoles'],
  detailRelations: userListSpec.relations,
  formFields: () => userFields,
  history: { event: (action) => (isUserEvent(action) ? i18next.t(`users:events.${action}`) : undefined) },
});

export const patientResource = defineResource<User>({
  ...userResource,
  noun: () => i18next.t('users:patients.noun'),
  title: () => i18next.t('users:patients.title'),
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
    label: () => i18next.t('users:fields.username'),
    description: () => i18next.t('users:fields.usernameHint'),
    required: true,
    only: 'create',
  },
  { kind: 'text', name: 'title', label: () => i18next.t('users:fields.title') },
  { kind: 'text', name: 'firstName', label: () => i18next.t('users:fields.firstName') },
  { kind: 'text', name: 'lastName', label: () => i18next.t('users:fields.lastName') },
  { kind: 'email', name: 'email', label: () => i18next.t('users:fields.email') },
  { kind: 'tel', name: 'phoneNumber', label: () => i18next.t('users:fields.phoneNumber') },
  {
    kind: 'multiselect',
    name: 'localRoles',
    label: () => i18next.t('users:fields.localRoles'),
    options: localUserRoles,
    optionLabel: (role) => enumLabel('role', role),
  },
  {
    kind: 'multiselect',
    name: 'roles',
    label: () => i18next.t('users:fields.globalRoles'),
    options: globalRoles,
    optionLabel: (role) => enumLabel('role', role),
  },
  {
    kind: 'select',
    name: 'identityAssuranceLevel',
    label: () => i18next.t('users:fields.identityAssuranceLevel'),
    options: assuranceLevels,
    optionLabel: (level) => enumLabel('assuranceLevel', level),
  },
  {
    kind: 'select',
    name: 'registrationStatus',
    label: () => i18next.t('users:fields.registrationStatus'),
    options: registrationStatuses,
    optionLabel: (status) => enumLabel('registrationStatus', status),
  },
  { kind: 'switch', name: 'isVerified', label: () => i18next.t('users:fields.verified') },
  { kind: 'switch', name: 'isBlocked', label: () => i18next.t('users:fields.blocked') },
  {
    kind: 'switch',
    name: 'registrationCompleted',
    label: () => i18next.t('users:fields.registrationCompleted'),
  },
  { kind: 'text', name: 'masterId', label: () => i18next.t('users:fields.masterId'), only: 'create' },
  {
    kind: 'refList',
    name: 'employers',
    label: () => i18next.t('users:fields.employers'),
    resource: 'service-providers',
  },
  {
    kind: 'refList',
    name: 'assignedNurses',
    label: () => i18next.t('users:fields.assignedNurses'),
    resource: 'users',
    filters: ['localRoles~nurse'],
  },
  {
    kind: 'refList',
    name: 'commandCenters',
    label: () => i18next.t('users:fields.commandCenters'),
    resource: 'command-centers',
  },
  { kind: 'address', name: 'address', label: () => i18next.t('users:fields.address'), asList: true },
  {
    kind: 'group',
    name: 'additionalInfo',
    label: () => i18next.t('users:fields.identity'),
    fields: [
      { kind: 'text', name: 'localizedFirstName', label: () => i18next.t('users:fields.localizedFirstName') },
      { kind: 'text', name: 'localizedLastName', label: () => i18next.t('users:fields.localizedLastName') },
      {
        kind: 'select',
        name: 'identityDocumentType',
        label: () => i18next.t('users:fields.identityDocumentType'),
        options: identityDocumentTypes,
        optionLabel: (type) => enumLabel('identityDocumentType', type),
      },
      {
        kind: 'text',
        name: 'identityDocumentNumber',
        label: () => i18next.t('users:fields.identityDocumentNumber'),
      },
      { kind: 'date', name: 'identityDocumentIssueDate', label: () => i18next.t('users:fields.issuedOn') },
      { kind: 'date', name: 'identityDocumentExpiryDate', label: () => i18next.t('users:fields.expiresOn') },
      {
        kind: 'switch',
        name: 'identityDocumentIsValidIndefinitely',
        label: () => i18next.t('users:fields.validIndefinitely'),
      },
      { kind: 'date', name: 'dateOfBirth', label: () => i18next.t('users:fields.dateOfBirth') },
      {
        kind: 'select',
        name: 'gender',
        label: () => i18next.t('users:fields.gender'),
        options: genders,
        optionLabel: (gender) => enumLabel('gender', gender),
      },
    ],
  },
  { kind: 'json', name: 'matrixIdentity', label: () => i18next.t('users:fields.matrixIdentity') },
];
