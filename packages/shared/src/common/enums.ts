// Every enumeration of the product in one place: the server's checks, the database and the console read these.

export const globalRoles = ['admin', 'master', 'public'] as const;
export type GlobalRole = (typeof globalRoles)[number];

export const localUserRoles = [
  'patient',
  'caregiver',
  'nurse',
  'doctor',
  'courier',
  'pharmacist',
  'supervisor',
  'application_admin',
  'none',
] as const;
export type LocalUserRole = (typeof localUserRoles)[number];

export const deviceRoles = [
  'workstation',
  'monitoring_workstation',
  'supervisor_workstation',
  'patient_terminal',
  'screen_workstation',
  'none',
] as const;
export type DeviceRole = (typeof deviceRoles)[number];

export const patientStatuses = ['enrollment', 'enrolled', 'discharged'] as const;
export type PatientStatus = (typeof patientStatuses)[number];

export const identityDocumentTypes = ['passport', 'national_id', 'driving_license', 'none'] as const;
export type IdentityDocumentType = (typeof identityDocumentTypes)[number];

export const trustLevels = ['untrusted', 'verified', 'trusted'] as const;
export type TrustLevel = (typeof trustLevels)[number];

/** How surely a person's identity was established (the sign-in's `acr`): a user's identityAssuranceLevel. */
export const assuranceLevels = ['low', 'substantial', 'high'] as const;
export type AssuranceLevel = (typeof assuranceLevels)[number];

export const connectionTypes = ['unknown', 'ble', 'wifi', 'cellular', 'usb'] as const;
export type ConnectionType = (typeof connectionTypes)[number];

export const iotDataTypes = [
  'battery',
  'heart_rate',
  'temperature',
  'pressure',
  'blood_pressure',
  'alert',
] as const;
export type IotDataType = (typeof iotDataTypes)[number];

export const serviceProviderTypes = ['pharmacy', 'courier', 'nurse'] as const;
export type ServiceProviderType = (typeof serviceProviderTypes)[number];

/** TIMED_OUT: an accepted or running job whose device went silent past its lease (decision 025). */
export const processStatuses = [
  'NEW',
  'ACCEPTED',
  'RUNNING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
  'TIMED_OUT',
] as const;
export type ProcessStatus = (typeof processStatuses)[number];

export const prescriptionStatuses = [
  'new',
  'issued',
  'waiting',
  'ready',
  'picked_up',
  'delivered',
  'on_hold',
  'returned',
] as const;
export type PrescriptionStatus = (typeof prescriptionStatuses)[number];

export const registrationStatuses = ['registered', 'pending', 'completed'] as const;
export type RegistrationStatus = (typeof registrationStatuses)[number];

export const genders = ['female', 'male', 'other', 'unspecified'] as const;
export type Gender = (typeof genders)[number];

/** How urgent an alert is. */
export const alertSeverities = ['info', 'warning', 'critical'] as const;
export type AlertSeverity = (typeof alertSeverities)[number];

export const DEFAULT_JOB_PURPOSE = 'No purpose provided.';
export const DEFAULT_STATS_LIMIT = 5;
export const APP_NAME = 'Careplane';
export const APP_VERSION = '0.3.0';
