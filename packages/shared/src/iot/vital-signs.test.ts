import { describe, expect, it } from 'vitest';
import { isVitalSign, vitalSignsOf } from './vital-signs.ts';

describe('vital signs', () => {
  it("are the readings of a person, not a device's battery or its events", () => {
    expect(['heart_rate', 'blood_pressure', 'temperature', 'pressure'].every(isVitalSign)).toBe(true);
    expect(isVitalSign('battery')).toBe(false);
    expect(isVitalSign('alert')).toBe(false);
    expect(vitalSignsOf(['battery', 'blood_pressure', 'alert', 'heart_rate'])).toEqual([
      'blood_pressure',
      'heart_rate',
    ]);
  });
});
