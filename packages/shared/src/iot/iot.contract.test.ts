import { describe, expect, it } from 'vitest';
import {
  DEFAULT_READING_BOUNDS,
  MAX_READINGS_PER_SUBMISSION,
  MAX_READING_CLOCK_AHEAD_MS,
  READING_BEFORE_ITS_TIME,
  READING_IN_THE_FUTURE,
  boundsBreaches,
  parseReadingBounds,
  validateReadings,
  connectionSecretIssues,
  iotDataSubmissionSchema,
  iotDeviceCreateSchema,
  iotDeviceExistsQuerySchema,
  iotDeviceUpdateSchema,
  isHeartRateOutOfBounds,
  readingSchemas,
} from './iot.contract.ts';

const deviceId = '0190f3a4-7b1c-7d2e-8f00-123456789abc';
const ts = 1_720_000_000_000;

const issuesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((issue) => issue.path.join('.'));

describe('reading validation', () => {
  it.each([
    ['battery', { timestamp: ts, level: 87 }],
    ['heart_rate', { timestamp: ts, rate: 72, id: 'r-1' }],
    ['temperature', { timestamp: ts, value: 36.6, unit: 'C' }],
    ['temperature', { timestamp: ts, value: 97.9, unit: 'Fahrenheit' }],
    ['temperature', { timestamp: ts, value: 310.1, unit: ' kelvin ' }],
    ['blood_pressure', { timestamp: ts, sys: 90, dias: 90 }],
    ['pressure', { timestamp: ts, value: 1013, unit: 'hPa' }],
    ['blood_pressure', { timestamp: ts, sys: 120, dias: 80 }],
    ['alert', { timestamp: ts, id: 'fall-1', kind: 'fall', severity: 'high' }],
  ] as const)('accepts a %s reading', (dataType, reading) => {
    const result = iotDataSubmissionSchema.safeParse({ iotDeviceId: deviceId, dataType, data: [reading] });
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  });

  it.each([
    ['battery', { timestamp: ts }, 'data.0.level'],
    ['battery', { timestamp: ts, level: '87' }, 'data.0.level'],
    ['heart_rate', { timestamp: ts, rate: 'fast' }, 'data.0.rate'],
    ['temperature', { timestamp: ts, value: 36.6 }, 'data.0.unit'],
    ['temperature', { timestamp: ts, unit: 'C' }, 'data.0.value'],
    ['pressure', { timestamp: ts, value: '1013', unit: 'hPa' }, 'data.0.value'],
    ['blood_pressure', { timestamp: ts, sys: 120 }, 'data.0.dias'],
    ['blood_pressure', { timestamp: ts, dias: 80, sys: null }, 'data.0.sys'],
    // Swapped: systolic is the higher of the two.
    ['blood_pressure', { timestamp: ts, sys: 60, dias: 120 }, 'data.0.sys'],
    // A unit nobody can place would be read as a fever or a chill; colder than anything can be.
    ['temperature', { timestamp: ts, value: 98.6, unit: 'degF' }, 'data.0.unit'],
    ['temperature', { timestamp: ts, value: 95, unit: 'banana' }, 'data.0.unit'],
    ['temperature', { timestamp: ts, value: -300, unit: 'K' }, 'data.0.value'],
    ['temperature', { timestamp: ts, value: -280, unit: '°C' }, 'data.0.value'],
    ['alert', { timestamp: ts }, 'data.0.id'],
    ['alert', { timestamp: ts, id: 42 }, 'data.0.id'],
    // Its type and message make the title the care team reads: no direction override, no control character.
    ['alert', { timestamp: ts, id: 'e', message: 'Patient OK \u202e gnidaelb' }, 'data.0'],
    ['alert', { timestamp: ts, id: 'e', type: 'fall\u0007\u001b[31m' }, 'data.0'],
    ['heart_rate', { rate: 70 }, 'data.0.timestamp'],
    ['heart_rate', { timestamp: '2024-07-03', rate: 70 }, 'data.0.timestamp'],
    ['heart_rate', { timestamp: -1, rate: 70 }, 'data.0.timestamp'],
    ['heart_rate', { timestamp: ts, rate: 70, id: 7 }, 'data.0.id'],
    ['heart_rate', { timestamp: ts, rate: 70, extra: true }, 'data.0'],
  ] as const)('refuses a bad %s reading at the reading', (dataType, reading, path) => {
    const result = iotDataSubmissionSchema.safeParse({ iotDeviceId: deviceId, dataType, data: [reading] });
    expect(result.success).toBe(false);
    expect(issuesOf(result)).toContain(path);
  });

  it('takes a reading up to five minutes ahead of the clock, and refuses one from further ahead', () => {
    const at = (timestamp: number, dataType: 'heart_rate' | 'alert' = 'heart_rate') =>
      iotDataSubmissionSchema.safeParse({
        iotDeviceId: deviceId,
        dataType,
        data: [dataType === 'alert' ? { timestamp, id: 'fall-1' } : { timestamp, rate: 70 }],
      });
    const now = Date.now();
    expect(at(now + MAX_READING_CLOCK_AHEAD_MS - 1000).success).toBe(true);
    expect(at(ts).success).toBe(true);
    for (const timestamp of [now + MAX_READING_CLOCK_AHEAD_MS + 60_000, 99_999_999_999_999]) {
      for (const dataType of ['heart_rate', 'alert'] as const) {
        const result = at(timestamp, dataType);
        expect(issuesOf(result), `${dataType} ${timestamp}`).toEqual(['data.0.timestamp']);
        expect(result.error?.issues[0]?.message).toBe(READING_IN_THE_FUTURE);
      }
    }
  });

  it('refuses a reading from before 2000, a clock that was never set, and takes one from its first day', () => {
    const at = (timestamp: number) =>
      iotDataSubmissionSchema.safeParse({
        iotDeviceId: deviceId,
        dataType: 'heart_rate',
        data: [{ timestamp, rate: 12 }],
      });
    for (const timestamp of [0, 1, Date.UTC(1999, 11, 31, 23, 59, 59, 999)]) {
      const result = at(timestamp);
      expect(issuesOf(result), String(timestamp)).toEqual(['data.0.timestamp']);
      expect(result.error?.issues[0]?.message).toBe(READING_BEFORE_ITS_TIME);
    }
    expect(at(Date.UTC(2000, 0, 1)).success).toBe(true);
  });

  it('bounds what an alert reading may carry beside its id', () => {
    const alert = (size: number) =>
      iotDataSubmissionSchema.safeParse({
        iotDeviceId: deviceId,
        dataType: 'alert',
        data: [{ timestamp: ts, id: 'fall-1', note: 'ก'.repeat(size) }],
      });
    // Thai letters are three bytes each in UTF-8: the bound is on bytes.
    expect(alert(1300).success).toBe(true);
    const refused = alert(1400);
    expect(issuesOf(refused)).toEqual(['data.0']);
    expect(refused.error?.issues[0]?.message).toBe('At most 4 KB of fields');
  });

  it('points at the bad reading of a batch', () => {
    const data = [70, 71, 72, 'x', 74].map((rate) => ({ timestamp: ts, rate }));
    const result = iotDataSubmissionSchema.safeParse({ iotDeviceId: deviceId, dataType: 'heart_rate', data });
    expect(issuesOf(result)).toEqual(['data.3.rate']);
  });

  it('requires a uuid device, a known data type and a non-empty, bounded list', () => {
    const reading = { timestamp: ts, level: 50 };
    expect(issuesOf(iotDataSubmissionSchema.safeParse({ dataType: 'battery', data: [reading] }))).toContain(
      'iotDeviceId',
    );
    expect(
      issuesOf(
        iotDataSubmissionSchema.safeParse({ iotDeviceId: 'abc', dataType: 'battery', data: [reading] }),
      ),
    ).toContain('iotDeviceId');
    expect(
      iotDataSubmissionSchema.safeParse({ iotDeviceId: deviceId, dataType: 'glucose', data: [reading] })
        .success,
    ).toBe(false);
    expect(iotDataSubmissionSchema.safeParse({ iotDeviceId: deviceId, data: [reading] }).success).toBe(false);
    expect(
      issuesOf(iotDataSubmissionSchema.safeParse({ iotDeviceId: deviceId, dataType: 'battery', data: [] })),
    ).toContain('data');
    expect(
      iotDataSubmissionSchema.safeParse({ iotDeviceId: deviceId, dataType: 'battery', data: reading })
        .success,
    ).toBe(false);
    const tooMany = Array.from({ length: MAX_READINGS_PER_SUBMISSION + 1 }, () => reading);
    expect(
      iotDataSubmissionSchema.safeParse({ iotDeviceId: deviceId, dataType: 'battery', data: tooMany })
        .success,
    ).toBe(false);
  });

  it('refuses extra fields on the submission', () => {
    const result = iotDataSubmissionSchema.safeParse({
      iotDeviceId: deviceId,
      dataType: 'battery',
      data: [{ timestamp: ts, level: 1 }],
      userId: deviceId,
    });
    expect(result.success).toBe(false);
  });

  it('has a schema for every data type', () => {
    expect(Object.keys(readingSchemas).sort()).toEqual(
      ['alert', 'battery', 'blood_pressure', 'heart_rate', 'pressure', 'temperature'].sort(),
    );
  });

  it('bounds heart rates at 40 and 130 inclusive', () => {
    expect([39, 40, 130, 131].map(isHeartRateOutOfBounds)).toEqual([true, false, false, true]);
  });
});

describe('IoT device submit', () => {
  const valid = { hardwareIdentifier: 'HW-1', model: 'Pulse 2', connectionType: 'ble' };

  it('requires hardwareIdentifier, model and connectionType, non-empty', () => {
    const parsed = iotDeviceCreateSchema.parse(valid);
    expect(parsed.allowMultipleDeviceRelationships).toBe(false);
    for (const field of ['hardwareIdentifier', 'model', 'connectionType'] as const) {
      expect(issuesOf(iotDeviceCreateSchema.safeParse({ ...valid, [field]: undefined }))).toContain(field);
      expect(issuesOf(iotDeviceCreateSchema.safeParse({ ...valid, [field]: '  ' }))).toContain(field);
    }
    expect(issuesOf(iotDeviceCreateSchema.safeParse({ ...valid, connectionType: 'fax' }))).toContain(
      'connectionType',
    );
  });

  it('needs a secret for a trusted device and a trust level for a secret', () => {
    expect(issuesOf(iotDeviceCreateSchema.safeParse({ ...valid, trustLevel: 'trusted' }))).toEqual([
      'connectionSecret',
    ]);
    expect(issuesOf(iotDeviceCreateSchema.safeParse({ ...valid, connectionSecret: 's3cret-value' }))).toEqual(
      ['trustLevel'],
    );
    expect(
      iotDeviceCreateSchema.safeParse({ ...valid, trustLevel: 'trusted', connectionSecret: 's3cret-value' })
        .success,
    ).toBe(true);
    expect(iotDeviceCreateSchema.safeParse({ ...valid, trustLevel: 'verified' }).success).toBe(true);
    expect(
      issuesOf(
        iotDeviceCreateSchema.safeParse({ ...valid, trustLevel: 'trusted', connectionSecret: 'short' }),
      ),
    ).toContain('connectionSecret');
  });

  it('takes connectionMeta as an optional object and data types from the enumeration', () => {
    expect(iotDeviceCreateSchema.safeParse({ ...valid, connectionMeta: { mac: 'aa:bb' } }).success).toBe(
      true,
    );
    expect(iotDeviceCreateSchema.safeParse({ ...valid, connectionMeta: 'aa:bb' }).success).toBe(false);
    expect(
      iotDeviceCreateSchema.parse({ ...valid, supportedDataTypes: ['battery', 'battery'] })
        .supportedDataTypes,
    ).toEqual(['battery']);
    expect(
      issuesOf(iotDeviceCreateSchema.safeParse({ ...valid, supportedDataTypes: ['glucose'] })),
    ).toContain('supportedDataTypes.0');
    expect(iotDeviceCreateSchema.safeParse({ ...valid, unknownField: 1 }).success).toBe(false);
  });

  it('checks the secret rule on an update only when both fields are sent', () => {
    expect(iotDeviceUpdateSchema.safeParse({ trustLevel: 'trusted' }).success).toBe(true);
    expect(iotDeviceUpdateSchema.safeParse({ trustLevel: 'trusted', connectionSecret: null }).success).toBe(
      false,
    );
    expect(iotDeviceUpdateSchema.safeParse({ hardwareIdentifier: '' }).success).toBe(false);
  });

  it('names the issues of the secret rule', () => {
    expect(connectionSecretIssues('trusted', false)).toHaveLength(1);
    expect(connectionSecretIssues(null, true)).toHaveLength(1);
    expect(connectionSecretIssues('untrusted', true)).toHaveLength(0);
    expect(connectionSecretIssues(undefined, false)).toHaveLength(0);
  });

  it('requires hardwareIdentifier for the exists check', () => {
    expect(iotDeviceExistsQuerySchema.safeParse({}).success).toBe(false);
    expect(iotDeviceExistsQuerySchema.safeParse({ hardwareIdentifier: '' }).success).toBe(false);
    expect(iotDeviceExistsQuerySchema.safeParse({ hardwareIdentifier: 'HW-1' }).success).toBe(true);
  });
});

describe('reading bounds', () => {
  it('parses IOT_ALERT_BOUNDS over the defaults: ranges, one-sided bounds, off', () => {
    const bounds = parseReadingBounds('heart_rate.rate=50..100, battery.level=off, pressure.value=..1100');
    expect(bounds.heart_rate).toEqual({ rate: { min: 50, max: 100 } });
    expect(bounds.battery).toEqual({});
    expect(bounds.pressure).toEqual({ value: { max: 1100 } });
    expect(bounds.blood_pressure).toEqual(DEFAULT_READING_BOUNDS.blood_pressure);
    expect(parseReadingBounds(undefined)).toEqual(DEFAULT_READING_BOUNDS);
  });

  it('refuses malformed entries, naming them', () => {
    for (const text of [
      'heart_rate.rate',
      'mood.value=1..2',
      'alert.id=1..2',
      'heart_rate.rate=..',
      'heart_rate.rate=9..1',
    ]) {
      expect(() => parseReadingBounds(text), text).toThrow();
    }
  });

  it('finds the fields outside their bounds, with a severity, temperatures in Celsius', () => {
    const bounds = DEFAULT_READING_BOUNDS;
    expect(boundsBreaches(bounds, 'heart_rate', { timestamp: 1, rate: 100 })).toEqual([]);
    expect(boundsBreaches(bounds, 'heart_rate', { timestamp: 1, rate: 140 })).toEqual([
      { field: 'rate', value: 140, min: 40, max: 130, severity: 'warning' },
    ]);
    expect(boundsBreaches(bounds, 'heart_rate', { timestamp: 1, rate: 20 })[0]?.severity).toBe('critical');
    expect(boundsBreaches(bounds, 'temperature', { timestamp: 1, value: 98.6, unit: '°F' })).toEqual([]);
    expect(boundsBreaches(bounds, 'temperature', { timestamp: 1, value: 313.15, unit: 'K' })[0]?.field).toBe(
      'value',
    );
    expect(boundsBreaches(bounds, 'alert', { timestamp: 1, id: 'x' })).toEqual([]);
    // One kept from before units were checked, in a unit nobody knows, is compared with nothing.
    expect(boundsBreaches(bounds, 'temperature', { timestamp: 1, value: 98.6, unit: 'degF' })).toEqual([]);
  });
});

describe('validateReadings', () => {
  it('splits readings into valid ones and the issues of each invalid one', () => {
    const { valid, invalid } = validateReadings('blood_pressure', [
      { timestamp: ts, sys: 120, dias: 80 },
      { timestamp: ts + 1, sys: 'high', dias: 80 },
      'nonsense',
    ]);
    expect(valid).toEqual([{ timestamp: ts, sys: 120, dias: 80 }]);
    expect(invalid.map((entry) => entry.index)).toEqual([1, 2]);
    expect(invalid[0]!.issues[0]!.path).toBe('sys');
  });
});
