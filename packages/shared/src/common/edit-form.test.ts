import { describe, expect, it } from 'vitest';
import { deepEqual, editFormChanges } from './edit-form.ts';

interface Provider {
  title: string | null;
  isEnabled: boolean;
  address: { city: string; geo?: { lat: number; lng: number } } | null;
  employees: string[];
  note?: string | null;
}

const original: Provider = {
  title: 'Riverside Pharmacy',
  isEnabled: true,
  address: { city: 'Chiang Mai', geo: { lat: 18.79, lng: 98.98 } },
  employees: ['a', 'b'],
  note: 'Opens at 8',
};

describe('editFormChanges', () => {
  it('reports nothing to save when the form equals the original', () => {
    const values = structuredClone(original);
    expect(editFormChanges<Provider>(original, values)).toEqual({ changes: {}, changed: false });
  });

  it('sends only the fields that changed', () => {
    const values = { ...structuredClone(original), title: 'Riverside Pharmacy 2', isEnabled: false };
    expect(editFormChanges<Provider>(original, values)).toEqual({
      changes: { title: 'Riverside Pharmacy 2', isEnabled: false },
      changed: true,
    });
  });

  it('compares nested objects and lists by content, and sends a changed one whole', () => {
    const sameButNew = { ...original, address: { geo: { lng: 98.98, lat: 18.79 }, city: 'Chiang Mai' } };
    expect(editFormChanges<Provider>(original, sameButNew).changed).toBe(false);

    const moved = { ...original, address: { city: 'Chiang Mai', geo: { lat: 18.8, lng: 98.98 } } };
    expect(editFormChanges<Provider>(original, moved).changes).toEqual({ address: moved.address });

    const reordered = { ...original, employees: ['b', 'a'] };
    expect(editFormChanges<Provider>(original, reordered).changes).toEqual({ employees: ['b', 'a'] });
  });

  it('never sends null or undefined fields, even when they differ from the original', () => {
    const cleared = { ...original, title: null, address: null, note: undefined };
    expect(editFormChanges<Provider>(original, cleared)).toEqual({ changes: {}, changed: false });
  });

  it('sends a field the original did not have', () => {
    const fresh: Partial<Provider> = { title: 'New' };
    const values: Provider = { title: 'New', isEnabled: true, address: null, employees: [] };
    expect(editFormChanges(fresh, values)).toEqual({
      changes: { isEnabled: true, employees: [] },
      changed: true,
    });
  });

  it('treats false, zero and the empty string as values, not as absent', () => {
    const counts = { a: 1, b: true, c: 'x' };
    expect(editFormChanges(counts, { a: 0, b: false, c: '' })).toEqual({
      changes: { a: 0, b: false, c: '' },
      changed: true,
    });
  });
});

describe('deepEqual', () => {
  it('compares dates by time and NaN with itself', () => {
    expect(deepEqual(new Date(5), new Date(5))).toBe(true);
    expect(deepEqual(new Date(5), new Date(6))).toBe(false);
    expect(deepEqual(new Date(5), 5)).toBe(false);
    expect(deepEqual(Number.NaN, Number.NaN)).toBe(true);
  });

  it('treats a key holding undefined like a missing key, as JSON does', () => {
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(deepEqual({ a: 1, b: null }, { a: 1 })).toBe(false);
  });

  it('tells arrays from objects and lists of different length apart', () => {
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(deepEqual([{ x: [1] }], [{ x: [1] }])).toBe(true);
  });
});
