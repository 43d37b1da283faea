import { describe, expect, it } from 'vitest';
import { alertCreateSchema, alertUpdateSchema } from './alerts.contract.ts';

describe('alert contract', () => {
  it('requires data as an object and defaults isActive to true', () => {
    expect(alertCreateSchema.parse({ data: { note: 'Check on patient' } }).isActive).toBe(true);
    expect(alertCreateSchema.safeParse({}).success).toBe(false);
    expect(alertCreateSchema.safeParse({ data: 'text' }).success).toBe(false);
    expect(alertCreateSchema.safeParse({ data: {}, user: 'not-a-uuid' }).success).toBe(false);
    expect(alertCreateSchema.safeParse({ data: {}, extra: 1 }).success).toBe(false);
  });

  it('requires closingData when closing and refuses it otherwise', () => {
    expect(alertUpdateSchema.safeParse({ isActive: false }).error?.issues[0]?.path).toEqual(['closingData']);
    expect(alertUpdateSchema.safeParse({ isActive: false, closingData: { note: 'ok' } }).success).toBe(true);
    expect(alertUpdateSchema.safeParse({ isActive: true, closingData: { note: 'ok' } }).success).toBe(false);
    expect(alertUpdateSchema.safeParse({ isActive: true }).success).toBe(true);
    expect(alertCreateSchema.safeParse({ data: {}, isActive: false }).success).toBe(false);
  });
});
