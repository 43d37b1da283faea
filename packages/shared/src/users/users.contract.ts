// Users and patient profiles: what the API accepts and answers.
import { z } from 'zod';
import { defineListSpec, filterKinds as k, resourceEndpoints } from '../common/list-spec.ts';
import {
  assuranceLevels,
  genders,
  globalRoles,
  identityDocumentTypes,
  localUserRoles,
  patientStatuses,
  registrationStatuses,
} from '../common/enums.ts';
import {
  MAX_TEXT,
  embedded,
  embeddedList,
  idList,
  jsonObject,
  locationSchema,
  phoneNumberSchema,
  recordSchema,
  requiredText,
  streetAddressSchema,
  nameText,
  text,
  uuidSchema,
} from '../common/primitives.ts';
import { languageSchema } from '../i18n/languages.ts';
import { enrollmentSchema } from './account.contract.ts';

/** `name@domain`: the domain is the user's primary domain. */
export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  // Empty is missing, not misshapen: it says so, and the shape's sentence does not follow.
  .min(1, { message: 'Required', abort: true })
  .max(254)
  .regex(/^[a-z0-9._+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*$/, {
    message: 'Must look like name@domain',
  });

export const splitUsername = (username: string) => {
  const at = username.lastIndexOf('@');
  return { usernameWithoutDomain: username.slice(0, at), primaryDomain: username.slice(at + 1) };
};

/** A day that exists: 2099-13-45 has the shape but is no date. */
const isCalendarDay = (value: string) => {
  const [year = 0, month = 0, day = 0] = value.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};
const dateOnly = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Must be a date YYYY-MM-DD', abort: true })
  .refine(isCalendarDay, { message: 'Must be a date YYYY-MM-DD', abort: true });

/** Today's date where it is latest on Earth (UTC+14): no one anywhere is typing a later day. */
const latestToday = () => new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);
const notFuture = dateOnly.refine((day) => day <= latestToday(), { message: 'Must not be in the future' });
const birthDay = notFuture.refine((day) => day >= '1900-01-01', {
  message: 'Must not be earlier than 1900-01-01',
});

/** A document that expires before it was issued is a typo: refused when the body gives both dates. */
const documentDatesInOrder = (
  info: { identityDocumentIssueDate?: string | undefined; identityDocumentExpiryDate?: string | undefined },
  context: z.RefinementCtx,
) => {
  const { identityDocumentIssueDate: issued, identityDocumentExpiryDate: expires } = info;
  if (issued && expires && expires < issued) {
    context.addIssue({
      code: 'custom',
      path: ['identityDocumentExpiryDate'],
      message: 'Must not be before the issue date',
    });
  }
};

const additionalInfoFields = {
  localizedFirstName: nameText().optional(),
  localizedLastName: nameText().optional(),
  identityDocumentNumber: text(64).optional(),
  identityDocumentIssueDate: notFuture.optional(),
  identityDocumentExpiryDate: dateOnly.optional(),
  identityDocumentIsValidIndefinitely: z.boolean().default(false),
  identityDocumentType: z.enum(identityDocumentTypes).default('none'),
  dateOfBirth: birthDay.optional(),
  gender: z.enum(genders).optional(),
};
export const additionalInfoSchema = z.strictObject(additionalInfoFields).superRefine(documentDatesInOrder);
export type AdditionalInfo = z.infer<typeof additionalInfoSchema>;

/** A change to additionalInfo: only the keys sent change, nothing falls back to a default. */
export const additionalInfoPatchSchema = z
  .strictObject({
    ...additionalInfoFields,
    identityDocumentIsValidIndefinitely: z.boolean().optional(),
    identityDocumentType: z.enum(identityDocumentTypes).optional(),
  })
  .superRefine(documentDatesInOrder);

/** The longest first or last name a person's record and their sign-in identity keep. */
export const MAX_PERSON_NAME = 120;

const userFields = {
  email: z.email().max(254).nullable().optional(),
  phoneNumber: phoneNumberSchema().nullable().optional(),
  title: nameText(64).nullable().optional(),
  firstName: nameText(MAX_PERSON_NAME).nullable().optional(),
  lastName: nameText(MAX_PERSON_NAME).nullable().optional(),
  identityAssuranceLevel: z.enum(assuranceLevels).nullable().optional(),
  isVerified: z.boolean().optional(),
  isBlocked: z.boolean().optional(),
  registrationCompleted: z.boolean().optional(),
  registrationStatus: z.enum(registrationStatuses).optional(),
  /** The spec keeps the address as a list of one item. */
  address: z.array(streetAddressSchema).max(1).optional(),
  roles: z.array(z.enum(globalRoles)).max(3).optional(),
  localRoles: z.array(z.enum(localUserRoles)).min(1).max(9).optional(),
  matrixIdentity: jsonObject.nullable().optional(),
  patientProfile: uuidSchema.nullable().optional(),
  employers: idList.optional(),
  assignedNurses: idList.optional(),
  commandCenters: idList.optional(),
};

export const userCreateSchema = z.strictObject({
  username: usernameSchema,
  masterId: text(255).nullable().optional(),
  additionalInfo: additionalInfoSchema.optional(),
  ...userFields,
});
export type UserCreate = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z.strictObject({
  ...userFields,
  additionalInfo: additionalInfoPatchSchema.optional(),
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;

export const userSchema = z.object({
  ...recordSchema,
  username: z.string(),
  usernameWithoutDomain: z.string(),
  primaryDomain: z.string(),
  masterId: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  title: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  identityAssuranceLevel: z.string().nullable(),
  isVerified: z.boolean(),
  isBlocked: z.boolean(),
  registrationCompleted: z.boolean(),
  registrationStatus: z.string(),
  address: z.array(z.looseObject({})),
  roles: z.array(z.string()),
  localRoles: z.array(z.string()),
  matrixIdentity: z.looseObject({}).nullable(),
  additionalInfo: z.looseObject({}),
  /** The console's language the user chose; null follows the browser. */
  language: languageSchema.nullable(),
  patientProfileId: z.string().nullable(),
  createdByUserId: z.string().nullable(),
  patientProfile: embedded.nullable().optional(),
  employers: embeddedList.optional(),
  assignedNurses: embeddedList.optional(),
  assignedIotDevices: embeddedList.optional(),
  assignedToWorkstations: embeddedList.optional(),
  assignedDevices: embeddedList.optional(),
  commandCenters: embeddedList.optional(),
  createdByUser: embedded.nullable().optional(),
  /** Only in the answer of an admin's create that provisioned the sign-in identity: shown once. */
  enrollment: enrollmentSchema.optional(),
});
export type User = z.infer<typeof userSchema>;

export const emergencyContactSchema = z.strictObject({
  name: requiredText(),
  relationship: text(80).optional(),
  phoneNumber: phoneNumberSchema().optional(),
  email: z.email().max(254).optional(),
  notes: text(MAX_TEXT).optional(),
});
export type EmergencyContact = z.infer<typeof emergencyContactSchema>;

export const patientProfileCreateSchema = z.strictObject({
  status: z.enum(patientStatuses),
  location: locationSchema.nullable().optional(),
  emergencyContacts: z.array(emergencyContactSchema).max(20).optional(),
  /** Defaults to the caller; the record is refused when neither names a user. */
  createdByUser: uuidSchema.optional(),
});
export type PatientProfileCreate = z.infer<typeof patientProfileCreateSchema>;

export const patientProfileUpdateSchema = z.strictObject({
  status: z.enum(patientStatuses).optional(),
  location: locationSchema.nullable().optional(),
  emergencyContacts: z.array(emergencyContactSchema).max(20).optional(),
});
export type PatientProfileUpdate = z.infer<typeof patientProfileUpdateSchema>;

export const patientProfileSchema = z.object({
  ...recordSchema,
  status: z.enum(patientStatuses),
  location: z.looseObject({}).nullable(),
  emergencyContacts: z.array(z.looseObject({})),
  createdByUserId: z.string().nullable(),
  createdByUser: embedded.nullable().optional(),
  user: embedded.nullable().optional(),
});
export type PatientProfile = z.infer<typeof patientProfileSchema>;

// ---------------------------------------------------------------------------------------------------------
// Lists and endpoints

export const userListSpec = defineListSpec({
  resource: 'users',
  filters: {
    id: k.uuid,
    username: k.text,
    primaryDomain: k.text,
    masterId: k.text,
    email: k.text,
    isVerified: k.boolean,
    isBlocked: k.boolean,
    registrationCompleted: k.boolean,
    roles: k.enumList(globalRoles),
    localRoles: k.enumList(localUserRoles),
    'patientProfile.id': k.ref('patient-profiles'),
    'patientProfile.status': k.enum(patientStatuses),
    'commandCenters.id': k.ref('command-centers'),
    'employers.id': k.ref('service-providers'),
    'assignedNurses.id': k.ref('users'),
    'createdByUser.id': k.ref('users'),
  },
  search: ['id', 'username', 'firstName', 'lastName', 'email', 'phoneNumber', 'name'],
  sort: ['createdAt', 'updatedAt', 'username', 'firstName', 'lastName', 'email'],
  relations: [
    'patientProfile',
    'employers',
    'assignedNurses',
    'assignedIotDevices',
    'assignedToWorkstations',
    'assignedDevices',
    'commandCenters',
    'createdByUser',
  ],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

export const patientProfileListSpec = defineListSpec({
  resource: 'patient-profiles',
  filters: { id: k.uuid, status: k.enum(patientStatuses), 'createdByUser.id': k.ref('users') },
  search: ['id'],
  sort: ['createdAt', 'updatedAt', 'status'],
  relations: ['createdByUser', 'user'],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

export const userEndpoints = {
  ...resourceEndpoints('/api/users'),
  me: '/api/users/me',
  preferences: '/api/users/me/preferences',
  avatar: '/api/users/me/avatar',
  myPhones: '/api/users/me/phones',
  revokeMyPhone: (phoneId: string) => `/api/users/me/phones/${encodeURIComponent(phoneId)}/revoke`,
  signIn: '/api/auth',
  enrollment: (id: string) => `/api/users/${encodeURIComponent(id)}/enrollment`,
  phones: (id: string) => `/api/users/${encodeURIComponent(id)}/phones`,
  revokePhone: (id: string, phoneId: string) =>
    `/api/users/${encodeURIComponent(id)}/phones/${encodeURIComponent(phoneId)}/revoke`,
} as const;

export const patientProfileEndpoints = resourceEndpoints('/api/patient-profiles');
