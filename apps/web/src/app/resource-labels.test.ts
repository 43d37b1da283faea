// Every list area names its filters, search paths and enumeration options in the reader's language, and every
// form its choices: a path without a label, or an enumeration filter or select without option labels, shows
// English words made from the path or the value in Thai too.
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commandCenterFields,
  commandCenterResource,
} from '@/features/command-centers/command-centers.resource.ts';
import { deviceJobFields, deviceJobResource } from '@/features/devices/device-jobs.resource.ts';
import { deviceFields, deviceResource } from '@/features/devices/devices.resource.ts';
import { workstationFields, workstationResource } from '@/features/devices/workstations.resource.ts';
import { iotDeviceFields, iotDeviceResource } from '@/features/iot/iot.resource.ts';
import { prescriptionFields, prescriptionResource } from '@/features/prescriptions/prescriptions.resource.ts';
import {
  serviceProviderFields,
  serviceProviderResource,
} from '@/features/service-providers/service-providers.resource.ts';
import { patientProfileFields } from '@/features/users/components/patient-profile.tsx';
import { patientResource, userFields, userResource } from '@/features/users/users.resource.ts';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';
import { uiText } from '@/lib/i18n/translation.ts';
import { historyFieldLabel, pathLabel, type ResourceDescription } from '@/lib/resource-kit/resource.ts';

const resources: Record<string, ResourceDescription<{ id: string }>> = {
  users: userResource as never,
  patients: patientResource as never,
  devices: deviceResource as never,
  workstations: workstationResource as never,
  deviceJobs: deviceJobResource as never,
  iotDevices: iotDeviceResource as never,
  prescriptions: prescriptionResource as never,
  serviceProviders: serviceProviderResource as never,
  commandCenters: commandCenterResource as never,
};

const thaiScript = /[\u0E00-\u0E7F]/;

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe.each(Object.entries(resources))('the %s list in Thai', (_name, resource) => {
  it('labels every filter and search path', async () => {
    await i18next.changeLanguage('th');
    const paths = [...new Set([...Object.keys(resource.spec.filters), ...resource.spec.search])];
    // `id` reads ID in both languages, as the catalogs allow.
    const unlabelled = paths.filter(
      (path) => !thaiScript.test(pathLabel(path, resource.labels)) && path !== 'id',
    );
    expect(unlabelled).toEqual([]);
  });

  it('names every option of its enumeration filters', async () => {
    await i18next.changeLanguage('th');
    const unnamed = Object.entries(resource.spec.filters).flatMap(([path, kind]) => {
      if (kind.type !== 'enum') return [];
      const optionLabel = resource.optionLabels?.[path];
      return kind.values
        .filter((value) => !optionLabel || !thaiScript.test(uiText(optionLabel(value))))
        .map((value) => `${path}=${value}`);
    });
    expect(unnamed).toEqual([]);
  });
});

const forms: Record<string, readonly FieldSpec[]> = {
  user: userFields,
  patientProfile: patientProfileFields,
  device: deviceFields,
  workstation: workstationFields,
  deviceJob: deviceJobFields,
  iotDevice: iotDeviceFields,
  prescription: prescriptionFields,
  serviceProvider: serviceProviderFields,
  commandCenter: commandCenterFields,
};

/** The choices of a form's selects, nested groups and lists included, that would not read Thai. */
function unnamedChoices(fields: readonly FieldSpec[], prefix = ''): string[] {
  return fields.flatMap((field) => {
    const path = `${prefix}${field.name}`;
    if (field.kind === 'group' || field.kind === 'list') return unnamedChoices(field.fields, `${path}.`);
    if (field.kind !== 'select' && field.kind !== 'multiselect') return [];
    return field.options
      .filter((option) => !field.optionLabel || !thaiScript.test(uiText(field.optionLabel(option))))
      .map((option) => `${path}=${option}`);
  });
}

/** The form that writes each list's records (a patient is a user: the patient profile is a record of its own). */
const formsOf: Record<string, readonly FieldSpec[]> = {
  users: userFields,
  patients: userFields,
  devices: deviceFields,
  workstations: workstationFields,
  deviceJobs: deviceJobFields,
  iotDevices: iotDeviceFields,
  prescriptions: prescriptionFields,
  serviceProviders: serviceProviderFields,
  commandCenters: commandCenterFields,
};

describe.each(Object.entries(resources))('the %s history in Thai', (name, resource) => {
  it('names every field its form writes', async () => {
    await i18next.changeLanguage('th');
    const written = (formsOf[name] ?? []).map((field) => field.name);
    const unlabelled = written.filter((key) => !thaiScript.test(historyFieldLabel(key, resource)));
    expect(unlabelled).toEqual([]);
  });
});

describe.each(Object.entries(forms))('the %s form in Thai', (_name, fields) => {
  it('names every choice of its selects', async () => {
    await i18next.changeLanguage('th');
    expect(unnamedChoices(fields)).toEqual([]);
  });
});
