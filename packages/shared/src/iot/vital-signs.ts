// The readings that say how a person is: what a care team charts and reads first, before a device's battery or
// the events it sends (decision 106).
import type { IotDataType } from '../common/enums.ts';

export const vitalSignTypes = [
  'heart_rate',
  'blood_pressure',
  'temperature',
  'pressure',
] as const satisfies readonly IotDataType[];

export const isVitalSign = (dataType: string): boolean =>
  (vitalSignTypes as readonly string[]).includes(dataType);

/** The vital signs among a device's types, in the device's order. */
export const vitalSignsOf = (dataTypes: readonly string[]): string[] => dataTypes.filter(isVitalSign);
