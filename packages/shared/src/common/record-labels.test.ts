import { describe, expect, it } from 'vitest';
import { userColumns } from '../users/users.columns.ts';
import { deviceJobColumns } from '../devices/devices.columns.ts';
import { prescriptionColumns } from '../prescriptions/prescriptions.columns.ts';
import { serviceProviderColumns } from '../service-providers/service-providers.columns.ts';
import { englishLabels, recordLabels } from './label-context.ts';
import {
  addressLine,
  enumListText,
  iotDeviceName,
  namesOf,
  personName,
  prescriptionName,
  workstationName,
  yesNo,
} from './record-labels.ts';

describe('record names', () => {
  it('names people, devices, workstations and prescriptions without raw ids', () => {
    expect(personName({ firstName: 'Ann', lastName: 'Lee', username: 'ann@x' })).toBe('Ann Lee');
    expect(personName({ username: 'ann@x' })).toBe('ann@x');
    expect(iotDeviceName({ hardwareIdentifier: 'A4:C1', model: 'CP-T10' })).toBe('A4:C1 · CP-T10');
    expect(workstationName({ id: 'x', title: null, device: { id: 'd', title: 'Ward 3' } })).toBe(
      'Workstation of Ward 3',
    );
    expect(workstationName({ id: '0195f3a2-7c41', title: null })).toBe('Workstation 0195f3a2');
    expect(
      prescriptionName({
        content: [{ name: 'Amoxicillin' }, { name: 'Paracetamol' }],
        createdAt: '2026-11-23T09:00:00Z',
      }),
    ).toMatch(/^Amoxicillin \+1 \(2[23]\.11\.2026\)$/);
  });

  it('writes lists, yes/no, enumerations and addresses as a spreadsheet reads them', () => {
    expect(namesOf([{ title: 'A' }, { title: '' }, { title: 'B' }], (r) => String(r.title))).toBe('A, B');
    expect(yesNo(true)).toBe('Yes');
    expect(yesNo(null)).toBe('');
    expect(enumListText(['picked_up', 'application_admin'])).toBe('picked up, application admin');
    expect(
      addressLine({ street: 'Rama IV Road', houseNumber: '314', city: 'Bangkok', country: 'Thailand' }),
    ).toBe('Rama IV Road 314, Bangkok, Thailand');
  });

  it('gives every column a pure value from a record with its relations', () => {
    const user = {
      id: 'u1',
      firstName: 'Ann',
      lastName: 'Lee',
      username: 'ann@x',
      email: null,
      phoneNumber: null,
      localRoles: ['nurse'],
      roles: [],
      isBlocked: false,
      createdAt: '2026-01-05T08:00:00.000Z',
      patientProfile: { id: 'p', status: 'enrolled' },
      commandCenters: [{ id: 'c', title: 'Bangkok Command Center' }],
    };
    const row = Object.fromEntries(
      userColumns.map((column) => [column.key, column.value(user as never, englishLabels)]),
    );
    expect(row).toMatchObject({
      name: 'Ann Lee',
      email: '',
      localRoles: 'nurse',
      patientStatus: 'enrolled',
      commandCenters: 'Bangkok Command Center',
      isBlocked: 'No',
      createdAt: '05.01.2026',
    });
    expect(serviceProviderColumns.every((column) => typeof column.title === 'string' && column.key)).toBe(
      true,
    );
  });

  it('writes enumeration values, Yes and No and dates in Thai with Thai labels, and English by default', () => {
    const user = {
      id: 'u1',
      username: 'ann@x',
      localRoles: ['nurse', 'application_admin'],
      isBlocked: true,
      createdAt: '2026-01-05T08:00:00.000Z',
      patientProfile: { id: 'p', status: 'enrolled' },
    };
    const rowIn = (labels: ReturnType<typeof recordLabels>) =>
      Object.fromEntries(userColumns.map((column) => [column.key, column.value(user as never, labels)]));

    expect(rowIn(recordLabels('th', { language: 'th' }))).toMatchObject({
      localRoles: 'พยาบาล, ผู้ดูแลแอปพลิเคชัน',
      patientStatus: 'ลงทะเบียนแล้ว',
      isBlocked: 'ใช่',
      createdAt: '05.01.2569',
    });
    expect(rowIn(englishLabels)).toMatchObject({
      localRoles: 'nurse, application admin',
      patientStatus: 'enrolled',
      isBlocked: 'Yes',
      createdAt: '05.01.2026',
    });
    // A Thai export keeps the common era, which spreadsheets read as dates.
    expect(rowIn(recordLabels('th', { era: 'common' })).createdAt).toBe('05.01.2026');
  });

  it('keeps the English words of every enumeration column as exports wrote them', () => {
    const prescription = { id: 'r', content: [], status: 'picked_up', pickupByNurse: false };
    const status = prescriptionColumns.find((column) => column.key === 'status')!;
    expect(status.value(prescription as never, englishLabels)).toBe('picked up');
    expect(status.value(prescription as never, recordLabels('th'))).toBe('รับยาแล้ว');
    const job = { id: 'j', status: 'TIMED_OUT', commands: [], notBefore: null };
    const jobStatus = deviceJobColumns.find((column) => column.key === 'status')!;
    expect(jobStatus.value(job as never, englishLabels)).toBe('TIMED_OUT');
    expect(jobStatus.value(job as never, recordLabels('th'))).toBe('หมดเวลา');
  });
});
