import { describe, expect, it } from 'vitest';
import { alertSeverities } from '../alerts/alerts.contract.ts';
import * as enums from '../common/enums.ts';
import { enumWord, thaiEnumWords, type EnumGroup } from './enum-texts.ts';

const groups: Record<EnumGroup, readonly string[]> = {
  role: [...enums.globalRoles, ...enums.localUserRoles],
  deviceRole: enums.deviceRoles,
  patientStatus: enums.patientStatuses,
  registrationStatus: enums.registrationStatuses,
  gender: enums.genders,
  identityDocumentType: enums.identityDocumentTypes,
  connectionType: enums.connectionTypes,
  trustLevel: enums.trustLevels,
  assuranceLevel: enums.assuranceLevels,
  iotDataType: enums.iotDataTypes,
  serviceProviderType: enums.serviceProviderTypes,
  jobStatus: enums.processStatuses,
  prescriptionStatus: enums.prescriptionStatuses,
  alertSeverity: alertSeverities,
};

describe('enumeration words', () => {
  it('has a Thai word, in Thai script, for every value and no other', () => {
    for (const [group, values] of Object.entries(groups) as [EnumGroup, readonly string[]][]) {
      expect(Object.keys(thaiEnumWords[group]).sort(), group).toEqual([...new Set(values)].sort());
      for (const value of values)
        expect(enumWord(group, value, 'th'), `${group}.${value}`).toMatch(/[\u0E00-\u0E7F]/);
    }
  });

  it('reads English as the value in words, as exports always have', () => {
    expect(enumWord('prescriptionStatus', 'picked_up')).toBe('picked up');
    expect(enumWord('role', 'application_admin', 'en')).toBe('application admin');
    expect(enumWord('jobStatus', 'TIMED_OUT', 'en')).toBe('TIMED_OUT');
    // Acronyms as people write them, words as words.
    expect(
      ['ble', 'wifi', 'usb', 'cellular', 'unknown'].map((type) => enumWord('connectionType', type)),
    ).toEqual(['Bluetooth (BLE)', 'Wi-Fi', 'USB', 'cellular', 'unknown']);
    expect(enumWord('connectionType', 'ble', 'th')).toBe('บลูทูธ (BLE)');
  });

  it('reads a value it does not know, or none, as words or nothing', () => {
    expect(enumWord('patientStatus', 'on_leave', 'th')).toBe('on leave');
    expect(enumWord('patientStatus', 'constructor', 'th')).toBe('constructor');
    expect(enumWord('patientStatus', null, 'th')).toBe('');
  });
});
