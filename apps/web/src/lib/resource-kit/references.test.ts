// Relation pickers describe a record by its status, role or type in the reader's language.
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { referenceSources } from './references.ts';

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('reference descriptions', () => {
  it('name statuses, roles and types in Thai, and as words in English', async () => {
    const device = { id: 'd', title: 'Ward 3', role: 'patient_terminal' };
    const profile = {
      id: 'p',
      status: 'enrolled',
      user: { id: 'u', firstName: 'Malee', lastName: 'Srisawat' },
    };
    expect(referenceSources.devices?.description?.(device)).toBe('patient terminal');
    await i18next.changeLanguage('th');
    expect(referenceSources.devices?.description?.(device)).toBe('เครื่องปลายทางผู้ป่วย');
    expect(referenceSources['service-providers']?.description?.({ id: 's', type: 'pharmacy' })).toBe('ร้านยา');
    expect(referenceSources.prescriptions?.description?.({ id: 'r', status: 'picked_up' })).toBe('รับยาแล้ว');
    expect(referenceSources['device-jobs']?.description?.({ id: 'j', status: 'TIMED_OUT' })).toBe('หมดเวลา');
    expect(referenceSources['patient-profiles']?.label(profile)).toBe('Malee Srisawat (ลงทะเบียนแล้ว)');
  });
});
