import { describe, expect, it } from 'vitest';
import { commandCenterColumns } from '../command-centers/command-centers.columns.ts';
import { deviceColumns, deviceJobColumns, workstationColumns } from '../devices/devices.columns.ts';
import { iotDeviceColumns } from '../iot/iot.columns.ts';
import { prescriptionColumns } from '../prescriptions/prescriptions.columns.ts';
import { serviceProviderColumns } from '../service-providers/service-providers.columns.ts';
import { patientColumns, userColumns } from '../users/users.columns.ts';
import { columnTitle, thaiColumnTitles, type ColumnList } from './column-titles.ts';

const lists: Record<ColumnList, readonly { key: string; title: string }[]> = {
  users: userColumns,
  patients: patientColumns,
  devices: deviceColumns,
  workstations: workstationColumns,
  'device-jobs': deviceJobColumns,
  'iot-devices': iotDeviceColumns,
  'service-providers': serviceProviderColumns,
  'command-centers': commandCenterColumns,
  prescriptions: prescriptionColumns,
};

const entries = Object.entries(lists) as [ColumnList, readonly { key: string; title: string }[]][];

describe('column titles', () => {
  it('has a Thai title, in Thai script, for every column of every list and no other', () => {
    for (const [list, columns] of entries) {
      expect(Object.keys(thaiColumnTitles[list]).sort(), list).toEqual(columns.map((c) => c.key).sort());
      for (const column of columns)
        expect(columnTitle(list, column, 'th'), `${list}.${column.key}`).toMatch(/[\u0E00-\u0E7F]/);
    }
  });

  it('gives each column of a list its own header in both languages: spreadsheets find columns by it', () => {
    for (const [list, columns] of entries) {
      for (const language of ['en', 'th'] as const) {
        const headers = columns.map((column) => columnTitle(list, column, language));
        expect(new Set(headers).size, `${language} ${list}: ${headers.join(', ')}`).toBe(headers.length);
      }
    }
  });

  // The console's catalog of an area holds its lists' titles under one key each (`devices:columns.title`).
  it('translates a column alike in every list that has it', () => {
    const seen = new Map<string, string>();
    for (const [list, columns] of entries) {
      for (const column of columns) {
        const thai = columnTitle(list, column, 'th');
        const same = `${column.key}|${column.title}`;
        expect(seen.get(same) ?? thai, `${list}.${column.key}`).toBe(thai);
        seen.set(same, thai);
      }
    }
  });

  it("reads English, and a list or column it does not know, as the column's own title", () => {
    const name = userColumns.find((column) => column.key === 'name')!;
    expect(columnTitle('users', name)).toBe('Name');
    expect(columnTitle('users', name, 'en')).toBe('Name');
    expect(columnTitle('users', name, 'th')).toBe('ชื่อ');
    expect(columnTitle('alerts', name, 'th')).toBe('Name');
    expect(columnTitle('constructor', name, 'th')).toBe('Name');
    expect(columnTitle('users', { key: 'nickname', title: 'Nickname' }, 'th')).toBe('Nickname');
    expect(columnTitle('users', { key: 'toString', title: 'To string' }, 'th')).toBe('To string');
  });
});
