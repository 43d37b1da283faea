// How the console finds and names records of another resource: where to search as one types
// (`filtersLike`), how a record is named (never by its raw id) and where its page is. Relation pickers,
// filter controls, detail pages and the audit history read this one table.
import { commandCenterEndpoints } from '@careplane/shared/command-centers/command-centers.contract';
import {
  deviceEndpoints,
  deviceJobEndpoints,
  workstationEndpoints,
} from '@careplane/shared/devices/devices.contract';
import { iotDeviceEndpoints } from '@careplane/shared/iot/iot.contract';
import type { ResourceName } from '@careplane/shared/common/list-spec';
import { prescriptionEndpoints } from '@careplane/shared/prescriptions/prescriptions.contract';
import {
  iotDeviceName,
  personName,
  prescriptionName,
  shortId,
  textOf,
  titleOf,
  workstationName,
  type RecordLike,
} from '@careplane/shared/common/record-labels';
import { serviceProviderEndpoints } from '@careplane/shared/service-providers/service-providers.contract';
import { patientProfileEndpoints, userEndpoints } from '@careplane/shared/users/users.contract';
import i18next from 'i18next';
import { paths } from '@/config/paths.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import type { UiText } from '@/lib/i18n/translation.ts';

export interface ReferenceSource {
  /** The word for one record, in lower case ("user", "command center"), in the language shown. */
  noun: UiText;
  /** The list endpoint searched and read by id. */
  list: string;
  /** `filtersLike` paths tried as one types; records matching any of them are offered. */
  searchPaths: readonly string[];
  /** Relations the label reads. */
  relations?: readonly string[];
  label: (record: RecordLike) => string;
  /** A second line that tells records of the same name apart. */
  description?: (record: RecordLike) => string;
  /** The record's page in the console. */
  detailPath?: (id: string) => string;
}

const admin = paths.admin;

export const referenceSources: Partial<Record<ResourceName, ReferenceSource>> = {
  users: {
    noun: () => i18next.t('kit:nouns.user'),
    list: userEndpoints.list,
    searchPaths: ['name', 'username'],
    label: (user) => personName(user) || shortId(user.id),
    description: (user) => textOf(user.username),
    detailPath: admin.users.detail.to,
  },
  'patient-profiles': {
    noun: () => i18next.t('kit:nouns.patientProfile'),
    list: patientProfileEndpoints.list,
    searchPaths: ['id'],
    relations: ['user'],
    label: (profile) =>
      `${personName(profile.user as RecordLike | null) || i18next.t('kit:patientProfileFallback')} (${enumLabel('patientStatus', profile.status)})`,
  },
  devices: {
    noun: () => i18next.t('kit:nouns.device'),
    list: deviceEndpoints.list,
    searchPaths: ['title'],
    label: (device) => titleOf(device) || shortId(device.id),
    description: (device) => enumLabel('deviceRole', device.role),
    detailPath: admin.devices.detail.to,
  },
  workstations: {
    noun: () => i18next.t('kit:nouns.workstation'),
    list: workstationEndpoints.list,
    searchPaths: ['title'],
    relations: ['device'],
    label: workstationName,
    detailPath: admin.workstations.detail.to,
  },
  'device-jobs': {
    noun: () => i18next.t('kit:nouns.deviceJob'),
    list: deviceJobEndpoints.list,
    searchPaths: ['purpose'],
    label: (job) => textOf(job.purpose) || shortId(job.id),
    description: (job) => enumLabel('jobStatus', job.status),
    detailPath: admin.deviceJobs.detail.to,
  },
  'iot-devices': {
    noun: () => i18next.t('kit:nouns.iotDevice'),
    list: iotDeviceEndpoints.list,
    searchPaths: ['hardwareIdentifier', 'model'],
    label: (device) => iotDeviceName(device) || shortId(device.id),
    detailPath: (id) => admin.iotDevices.detail.to(id),
  },
  'service-providers': {
    noun: () => i18next.t('kit:nouns.serviceProvider'),
    list: serviceProviderEndpoints.list,
    searchPaths: ['title'],
    label: (provider) => titleOf(provider) || shortId(provider.id),
    description: (provider) => enumLabel('serviceProviderType', provider.type),
    detailPath: (id) => admin.serviceProviders.detail.to(id),
  },
  'command-centers': {
    noun: () => i18next.t('kit:nouns.commandCenter'),
    list: commandCenterEndpoints.list,
    searchPaths: ['title'],
    label: (center) => titleOf(center) || shortId(center.id),
    detailPath: (id) => admin.commandCenters.detail.to(id),
  },
  prescriptions: {
    noun: () => i18next.t('kit:nouns.prescription'),
    list: prescriptionEndpoints.list,
    searchPaths: ['content.name'],
    label: prescriptionName,
    description: (prescription) => enumLabel('prescriptionStatus', prescription.status),
    detailPath: admin.prescriptions.detail.to,
  },
};

export const referenceSource = (resource: ResourceName | undefined) =>
  resource ? referenceSources[resource] : undefined;
