// What one link declaration makes on the database side: the join table, both halves of its drizzle relations,
// and, for the schema's links, exactly the tables the committed migrations made.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  createTableRelationsHelpers,
  extractTablesRelationalConfig,
  getTableName,
  is,
  normalizeRelation,
} from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from '@/locations.js';
import * as schema from './index.js';
import { declaredLinks, defineLink, withLinkRelations } from './links.js';

const { devices, users, userAssignedNurses, userEmployers } = schema;

const deviceWatchers = defineLink(
  'test_device_watchers',
  { column: 'deviceId', references: devices, list: 'watchers' },
  { column: 'userId', references: users },
);

describe('defineLink', () => {
  it('makes the join table: two uuid keys that cascade, the composite primary key and the way back', () => {
    const config = getTableConfig(deviceWatchers);
    expect(config.name).toBe('test_device_watchers');
    expect(config.columns.map((column) => [column.name, column.getSQLType(), column.notNull])).toEqual([
      ['device_id', 'uuid', true],
      ['user_id', 'uuid', true],
    ]);
    const keys = config.foreignKeys.map((key) => {
      const reference = key.reference();
      return {
        name: key.getName(),
        columns: reference.columns.map((column) => column.name),
        table: getTableName(reference.foreignTable),
        onDelete: key.onDelete,
      };
    });
    expect(keys).toEqual([
      {
        name: 'test_device_watchers_device_id_devices_id_fk',
        columns: ['device_id'],
        table: 'devices',
        onDelete: 'cascade',
      },
      {
        name: 'test_device_watchers_user_id_users_id_fk',
        columns: ['user_id'],
        table: 'users',
        onDelete: 'cascade',
      },
    ]);
    expect(
      config.primaryKeys.map((key) => [key.getName(), key.columns.map((column) => column.name)]),
    ).toEqual([['test_device_watchers_device_id_user_id_pk', ['device_id', 'user_id']]]);
    expect(
      config.indexes.map((index) => [
        index.config.name,
        index.config.columns.map((column) => 'name' in column && column.name),
      ]),
    ).toEqual([['test_device_watchers_user_idx', ['user_id']]]);
    // A name the derivation would not give is kept as declared.
    expect(getTableConfig(userEmployers).indexes.map((index) => index.config.name)).toEqual([
      'user_employers_provider_idx',
    ]);
  });

  it('records both ends, with the names derived from the columns and the lists', () => {
    const declared = declaredLinks().find((link) => link.table === deviceWatchers)!;
    expect(
      declared.ends.map(({ table, columnKey, column, via, list, rows }) => ({
        table,
        columnKey,
        column,
        via,
        list,
        rows,
      })),
    ).toEqual([
      {
        table: devices,
        columnKey: 'deviceId',
        column: deviceWatchers.deviceId,
        via: 'device',
        list: 'watchers',
        rows: 'watcherLinks',
      },
      {
        table: users,
        columnKey: 'userId',
        column: deviceWatchers.userId,
        via: 'user',
        list: undefined,
        rows: undefined,
      },
    ]);
  });

  it('is how every join table of the schema is made', () => {
    // A join table: two columns, both keys to another table, and together the primary key.
    const joinTables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => {
      if (!is(value, PgTable)) return false;
      const config = getTableConfig(value);
      return (
        config.columns.length === 2 && config.foreignKeys.length === 2 && config.primaryKeys.length === 1
      );
    });
    const declared = new Set(declaredLinks().map((link) => link.table));
    expect(joinTables.length).toBeGreaterThanOrEqual(7);
    expect(joinTables.filter((table) => !declared.has(table)).map(getTableName)).toEqual([]);
  });

  it('gives drizzle both halves of each relation, also between two records of one table', () => {
    const { tables, tableNamesMap } = extractTablesRelationalConfig(
      withLinkRelations(schema),
      createTableRelationsHelpers,
    );
    const resolve = (table: string, relation: string) => {
      const found = tables[table]!.relations[relation];
      expect(found, `${table}.${relation}`).toBeDefined();
      return normalizeRelation(tables, tableNamesMap, found!);
    };
    // A patient's nurses: the user's join rows are those whose userId is theirs, and a row leads to the nurse.
    expect(resolve('users', 'assignedNurseLinks')).toEqual({
      fields: [users.id],
      references: [userAssignedNurses.userId],
    });
    expect(resolve('userAssignedNurses', 'nurse')).toEqual({
      fields: [userAssignedNurses.nurseId],
      references: [users.id],
    });
    expect(resolve('serviceProviders', 'employeeLinks')).toEqual({
      fields: [schema.serviceProviders.id],
      references: [userEmployers.serviceProviderId],
    });
    // The test's own join table is not exported by the schema; its relations come with it.
    expect(resolve('devices', 'watcherLinks')).toEqual({
      fields: [devices.id],
      references: [deviceWatchers.deviceId],
    });
    // A side that lists nothing gets no relation to its join rows: a nurse has no way to their patients.
    const toNurseLinks = Object.values(tables.users!.relations).filter(
      (relation) => relation.referencedTable === userAssignedNurses,
    );
    expect(toNurseLinks.map((relation) => relation.fieldName)).toEqual(['assignedNurseLinks']);
  });

  it('declares the join tables exactly as the committed migrations made them', async () => {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
      entries: { idx: number }[];
    };
    const last = String(journal.entries.at(-1)!.idx).padStart(4, '0');
    const snapshot = JSON.parse(
      readFileSync(path.join(migrationsFolder, `meta/${last}_snapshot.json`), 'utf8'),
    );
    const current = generateDrizzleJson({ ...schema }, snapshot.id, undefined, 'snake_case');
    expect(await generateMigration(snapshot, current)).toEqual([]);
  });
});
