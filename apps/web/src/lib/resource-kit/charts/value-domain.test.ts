import { describe, expect, it } from 'vitest';
import { valueDomain } from './value-domain.ts';

const points = (name: string, values: (number | null)[]) =>
  values.map((value, at) => ({ at, [name]: value }));

describe('the value axis of a chart of measurements', () => {
  it('shows a fever as one: around the temperatures, not from zero', () => {
    const [low, high] = valueDomain(points('value', [36.6, 36.9, 40.1]), ['value'])!;
    expect(low).toBeGreaterThanOrEqual(34);
    expect(low).toBeLessThanOrEqual(36);
    expect(high).toBeGreaterThan(40.1);
    expect(high).toBeLessThanOrEqual(41);
  });

  it('takes every series drawn (a blood pressure, its mean and extremes), and skips gaps', () => {
    const data = [
      { at: 1, sys: 120, dias: 80, sysMax: 200 },
      { at: 2, sys: null, dias: 78, sysMax: null },
    ];
    const [low, high] = valueDomain(data, ['sys', 'dias', 'sysMax'])!;
    expect(low).toBeLessThan(78);
    expect(low).toBeGreaterThanOrEqual(0);
    expect(high).toBeGreaterThan(200);
    expect(high).toBeLessThanOrEqual(260);
  });

  it('puts one value, or a flat line, inside a band, on round numbers', () => {
    expect(valueDomain(points('rate', [72]), ['rate'])).toEqual([68, 76]);
    expect(valueDomain(points('rate', [60, 60, 60]), ['rate'])).toEqual([57, 63]);
  });

  it('goes no lower than zero for values that are not negative, and below it for values that are', () => {
    expect(valueDomain(points('value', [0, 1]), ['value'])![0]).toBe(0);
    expect(valueDomain(points('value', [-5, 5]), ['value'])![0]).toBeLessThan(-5);
  });

  it('draws a flat line at zero inside a band, and leaves values no scale holds to the chart', () => {
    expect(valueDomain(points('rate', [0, 0]), ['rate'])).toEqual([0, 1]);
    expect(valueDomain(points('value', [1e308, -1e308]), ['value'])).toBeUndefined();
    expect(valueDomain(points('value', [Number.NaN, Number.POSITIVE_INFINITY, 5]), ['value'])).toEqual([
      4.7, 5.3,
    ]);
  });

  it('leaves the axis to the chart when there is nothing to draw', () => {
    expect(valueDomain(points('rate', [null, null]), ['rate'])).toBeUndefined();
    expect(valueDomain([], ['rate'])).toBeUndefined();
  });
});
