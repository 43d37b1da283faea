// The charts' axis and tooltip write a value as the gridline it stands at: a load chart's gridlines at a quarter
// of a per cent read 0.25, 0.5 and 0.75, not 0.3, 0.5 and 0.8.
import { describe, expect, it } from 'vitest';
import { chartValue } from './series-chart.tsx';

describe('a chart value', () => {
  it('reads as the gridline it labels', () => {
    expect([0, 0.25, 0.5, 0.75, 1].map(chartValue)).toEqual(['0', '0.25', '0.5', '0.75', '1']);
    expect([0.0025, 0.0125, 1.25, 12.5, 97.125].map(chartValue)).toEqual([
      '0.0025',
      '0.0125',
      '1.25',
      '12.5',
      '97.125',
    ]);
  });

  it('keeps a small value from reading as 0, and a long one short', () => {
    expect(chartValue(0.0004)).toBe('0.0004');
    expect(chartValue(1 / 3)).toBe('0.333');
    expect(chartValue(42.123456)).toBe('42.123');
    expect(chartValue(-0.25)).toBe('-0.25');
  });
});
