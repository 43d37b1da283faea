// Every list area names its filters, search paths and enumeration options in the reader's language: a path
// without a label, or an enumeration filter without option labels, shows English words made from the path
// or the value in Thai too.
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { commandCenterResource } from '@/features/command-centers/command-centers.resource.ts';
import { deviceJobResource } from '@/features/devices/device-jobs.resource.ts';
import { deviceResource } from '@/features/devices/devices.resource.ts';
import { workstationResource } from '@/features/devices/workstations.resource.ts';
import { iotDeviceResource } from '@/features/iot/iot.resource.ts';
import { prescriptionResource } from '@/features/prescriptions/prescriptions.resource.ts';
import { serviceProviderResource } from '@/features/service-providers/service-providers.resource.ts';
import { patientResource, userResource } from '@/features/users/users.resource.ts';
import { uiText } from '@/lib/i18n/translation.ts';
import { pathLabel, type ResourceDescription } from '@/lib/resource-kit/resource.ts';

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
