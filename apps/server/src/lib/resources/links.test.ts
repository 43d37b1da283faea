// What the engine derives from the link declarations: each table's link lists, the graph's many-to-many
// relations, the `<list>.id` filters and the 400 for unknown ids.
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { defineListSpec, filterKinds as k } from '@careplane/shared/common/list-spec';
import {
  commandCenters,
  devices,
  iotDeviceDevices,
  iotDevices,
  serviceProviders,
  userAssignedNurses,
  userEmployers,
  users,
  workstationDevices,
} from '@/db/schema/index.js';
import { AppError } from '../errors.js';
import { bindListSpec, column } from './filters.js';
import { entitySpec } from './graph.js';
import { linkListsOf, unknownLinkedRecords } from './links.js';

describe('linkListsOf', () => {
  it('gives a table the lists its links declare for it, and nothing for a side that lists nothing', () => {
    expect(Object.keys(linkListsOf(users))).toEqual(
      expect.arrayContaining(['assignedNurses', 'assignedToWorkstations', 'commandCenters', 'employers']),
    );
    expect(Object.keys(linkListsOf(serviceProviders))).toContain('employees');
    // workstation_devices lists the devices of a workstation, not the other way round; user_assigned_nurses
    // a patient's nurses, not a nurse's patients.
    const joinTablesOf = (lists: Record<string, { table: unknown }>) =>
      Object.values(lists).map((list) => list.table);
    expect(joinTablesOf(linkListsOf(devices))).not.toContain(workstationDevices);
    expect(joinTablesOf(linkListsOf(users)).filter((table) => table === userAssignedNurses)).toHaveLength(1);
  });

  it('names the join table, its two columns and the listed records', () => {
    expect(linkListsOf(users).employers).toEqual({
      name: 'employers',
      table: userEmployers,
      ownerColumn: userEmployers.userId,
      ownerKey: 'userId',
      targetColumn: userEmployers.serviceProviderId,
      targetKey: 'serviceProviderId',
      target: { table: serviceProviders, entity: 'serviceProviders', noun: 'service provider' },
      rows: 'employerLinks',
      through: 'serviceProvider',
    });
    expect(linkListsOf(iotDevices).devices).toMatchObject({
      ownerColumn: iotDeviceDevices.iotDeviceId,
      targetColumn: iotDeviceDevices.deviceId,
      target: { entity: 'devices', noun: 'device' },
    });
  });

  it('puts every list in the relation graph, unwrapped through the join row', () => {
    expect(entitySpec('users').relations.employers).toEqual({
      key: 'employerLinks',
      target: 'serviceProviders',
      through: 'serviceProvider',
      many: true,
    });
    expect(entitySpec('users').relations.assignedNurses).toMatchObject({ target: 'users', through: 'nurse' });
    expect(entitySpec('commandCenters').relations.assignedUsers).toMatchObject({ key: 'assignedUserLinks' });
    // Relations of a foreign key stay as written.
    expect(entitySpec('commandCenters').relations.devices).toEqual({
      key: 'devices',
      target: 'devices',
      many: true,
    });
  });
});

describe('the <list>.id filter', () => {
  const spec = defineListSpec({
    resource: 'users',
    filters: { id: k.uuid, 'commandCenters.id': k.ref('command-centers') },
    search: [],
    sort: ['createdAt'],
    relations: [],
    defaultSort: { path: 'createdAt', direction: 'desc' },
  });
  const dialect = new PgDialect();
  const sqlOf = (query: ReturnType<typeof bindListSpec>, path: string) =>
    dialect.sqlToQuery(query.filters[path]!.build(['0190a0b0-0000-7000-8000-000000000001'], false));

  it('is bound from the declaration: a link row from this record to one of the values', () => {
    const query = bindListSpec(spec, {
      idColumn: users.id,
      filters: { id: column(users.id) },
      search: {},
      sort: { createdAt: users.createdAt },
    });
    expect(query.filters['commandCenters.id']?.kind).toBe(spec.filters['commandCenters.id']);
    const { sql, params } = sqlOf(query, 'commandCenters.id');
    expect(sql).toBe(
      'exists (select 1 from "command_center_users" as "filter_command_center_users" where "filter_command_center_users"."user_id" = "users"."id" and "filter_command_center_users"."command_center_id" in ($1))',
    );
    expect(params).toEqual(['0190a0b0-0000-7000-8000-000000000001']);
  });

  it('is the one given where a list spec binds it itself', () => {
    const query = bindListSpec(spec, {
      idColumn: users.id,
      filters: { id: column(users.id), 'commandCenters.id': column(users.id) },
      search: {},
      sort: { createdAt: users.createdAt },
    });
    expect(sqlOf(query, 'commandCenters.id').sql).toBe('"users"."id" = $1');
  });

  it('is refused where the table has no such list', () => {
    const unbound = { ...spec, filters: { ...spec.filters, 'watchers.id': k.uuid } };
    expect(() =>
      bindListSpec(unbound, {
        idColumn: users.id,
        filters: { id: column(users.id) } as never,
        search: {},
        sort: { createdAt: users.createdAt },
      }),
    ).toThrowError('List users: nothing binds the filter watchers.id');
  });
});

describe('unknownLinkedRecords', () => {
  it('is a 400 naming the field and the ids, in the words the API has always used', () => {
    const error = unknownLinkedRecords(linkListsOf(serviceProviders).employees!, ['a', 'b']);
    expect(error).toBeInstanceOf(AppError);
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe('Unknown employees');
    expect(error.issues).toEqual([{ path: 'body.employees', message: 'No user with id a, b' }]);
    const assigned = unknownLinkedRecords(linkListsOf(commandCenters).assignedUsers!, ['c']);
    expect([assigned.message, assigned.issues]).toEqual([
      'Unknown assigned users',
      [{ path: 'body.assignedUsers', message: 'No user with id c' }],
    ]);
  });

  it('names lists and records in words, acronyms as written', () => {
    expect(unknownLinkedRecords(linkListsOf(devices).iotDevices!, ['d']).issues).toEqual([
      { path: 'body.iotDevices', message: 'No IoT device with id d' },
    ]);
    expect(unknownLinkedRecords(linkListsOf(devices).iotDevices!, ['d']).message).toBe('Unknown IoT devices');
  });
});
