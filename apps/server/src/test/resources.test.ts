// Every generic resource against its contract: the list spec the console reads is the one the server binds,
// and the relations it offers are exactly those the relation graph can embed.
import { describe, expect, it } from 'vitest';
import { entitySpec } from '@/lib/resources/graph.js';
import { alertsResource } from '@/modules/alerts/alerts.resource.js';
import { commandCentersResource } from '@/modules/command-centers/command-centers.resource.js';
import {
  deviceJobsResource,
  deviceStatsResource,
  devicesResource,
  workstationsResource,
} from '@/modules/devices/devices.resource.js';
import { iotDataResource, iotDevicesResource } from '@/modules/iot/iot.resource.js';
import { prescriptionsResource } from '@/modules/prescriptions/prescriptions.resource.js';
import { serviceProvidersResource } from '@/modules/service-providers/service-providers.resource.js';
import { patientProfilesResource, usersResource } from '@/modules/users/users.resource.js';

const resources = [
  usersResource,
  patientProfilesResource,
  devicesResource,
  deviceStatsResource,
  workstationsResource,
  deviceJobsResource,
  iotDevicesResource,
  iotDataResource,
  alertsResource,
  serviceProvidersResource,
  commandCentersResource,
  prescriptionsResource,
];

describe.each(resources.map((resource) => [resource.name, resource] as const))('%s', (_name, resource) => {
  const { spec, query } = resource.list;

  it('is named as its list spec names it', () => {
    expect(spec.resource).toBe(resource.name);
  });

  it('offers exactly the relations its entity can embed', () => {
    expect([...spec.relations].sort()).toEqual(Object.keys(entitySpec(resource.entity).relations).sort());
  });

  it('binds every filter, search and sort path of the spec, and no other', () => {
    expect(Object.keys(query.filters).sort()).toEqual(Object.keys(spec.filters).sort());
    expect(Object.keys(query.like).sort()).toEqual([...spec.search].sort());
    expect(Object.keys(query.sorts).sort()).toEqual([...spec.sort].sort());
    const defaultColumns = query.sorts[spec.defaultSort.path]!;
    expect(query.defaultSort).toHaveLength(defaultColumns.length);
    query.defaultSort.forEach((key, index) => expect(key.column).toBe(defaultColumns[index]));
    expect(Boolean(query.timeColumn)).toBe(Boolean(spec.timeRange));
  });

  it('takes the kind of every filter value from the contract', () => {
    for (const [path, kind] of Object.entries(spec.filters)) expect(query.filters[path]?.kind).toBe(kind);
  });
});
