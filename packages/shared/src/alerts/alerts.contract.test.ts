import { describe, expect, it } from 'vitest';
import { LATER_THAN_NOW, MAX_ALERT_FIELDS_BYTES, MAX_TEXT } from '../common/primitives.ts';
import { alertCloseSchema, alertCreateSchema, alertUpdateSchema } from './alerts.contract.ts';

describe('alert contract', () => {
  it('requires data as an object and defaults isActive to true', () => {
    expect(alertCreateSchema.parse({ data: { note: 'Check on patient' } }).isActive).toBe(true);
    expect(alertCreateSchema.safeParse({}).success).toBe(false);
    expect(alertCreateSchema.safeParse({ data: 'text' }).success).toBe(false);
    expect(alertCreateSchema.safeParse({ data: {}, user: 'not-a-uuid' }).success).toBe(false);
    expect(alertCreateSchema.safeParse({ data: {}, extra: 1 }).success).toBe(false);
  });

  it("takes the time it happened from 2000 to now, a clock's drift allowed (decision 113)", () => {
    const at = (timestamp: number) => alertCreateSchema.safeParse({ data: {}, timestamp });
    expect(at(Date.UTC(2000, 0, 1)).success).toBe(true);
    expect(at(Date.now() + 60_000).success).toBe(true);
    expect(at(0).error?.issues).toMatchObject([
      { path: ['timestamp'], message: 'Must not be earlier than 2000-01-01' },
    ]);
    // The year 5138, and an hour ahead.
    for (const timestamp of [99_999_999_999_999, Date.now() + 3_600_000]) {
      expect(at(timestamp).error?.issues[0]?.message).toBe(LATER_THAN_NOW);
      expect(alertUpdateSchema.safeParse({ timestamp }).success).toBe(false);
    }
  });

  it('requires closingData when closing and refuses it otherwise', () => {
    expect(alertUpdateSchema.safeParse({ isActive: false }).error?.issues[0]?.path).toEqual(['closingData']);
    expect(alertUpdateSchema.safeParse({ isActive: false, closingData: { note: 'ok' } }).success).toBe(true);
    expect(alertUpdateSchema.safeParse({ isActive: true, closingData: { note: 'ok' } }).success).toBe(false);
    expect(alertUpdateSchema.safeParse({ isActive: true }).success).toBe(true);
    expect(alertCreateSchema.safeParse({ data: {}, isActive: false }).success).toBe(false);
  });

  it("bounds an alert's data and its closing data at 4 KB, as its readings (decisions 064, 111)", () => {
    expect(MAX_ALERT_FIELDS_BYTES).toBe(4096);
    // Thai letters are three bytes each in UTF-8: the bound is on bytes.
    const data = (size: number) => ({ message: 'ก'.repeat(size) });
    expect(alertCreateSchema.safeParse({ data: data(1300) }).success).toBe(true);
    for (const refused of [
      alertCreateSchema.safeParse({ data: data(1400) }),
      alertUpdateSchema.safeParse({ data: data(1400) }),
    ]) {
      expect(refused.error?.issues).toMatchObject([{ path: ['data'], message: 'At most 4 KB of fields' }]);
    }
    const fields = Object.fromEntries(Array.from({ length: 480 }, (_, n) => [`f${n}`, 'x'.repeat(1900)]));
    const besidesNote = 'At most 4 KB of fields besides the note';
    for (const refused of [
      alertCloseSchema.safeParse({ closingData: { note: 'ok', ...fields } }),
      alertUpdateSchema.safeParse({ isActive: false, closingData: fields }),
      alertCreateSchema.safeParse({ data: {}, isActive: false, closingData: { extra: 'ก'.repeat(1400) } }),
    ]) {
      expect(refused.error?.issues).toMatchObject([{ path: ['closingData'], message: besidesNote }]);
    }
    // The note has its own bound, in characters: the longest Thai note (6 KB in UTF-8) closes an alert, with
    // up to 4 KB of other fields beside it.
    const longestNote = 'ก'.repeat(MAX_TEXT);
    expect(
      alertCloseSchema.safeParse({ closingData: { note: longestNote, visit: 'ก'.repeat(1300) } }).success,
    ).toBe(true);
    expect(
      alertCloseSchema.safeParse({ closingData: { note: `${longestNote}ก` } }).error?.issues,
    ).toMatchObject([{ path: ['closingData', 'note'] }]);
  });
});
