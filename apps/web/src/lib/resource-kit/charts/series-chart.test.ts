// The charts' axis and tooltip write a value as the gridline it stands at: a load chart's gridlines at a quarter
// of a per cent read 0.25, 0.5 and 0.75, not 0.3, 0.5 and 0.8.
import { describe, expect, it } from 'vitest';
import { chartTimeLabel, chartValue, periodAxis } from './series-chart.tsx';

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

describe('a chart over a period', () => {
  const day = 86_400_000;
  const from = new Date(2030, 0, 1, 0, 0).getTime();
  const to = from + 30 * day;

  it('spans the whole period, whatever its records cover', () => {
    const { xAxisProps } = periodAxis({ from, to });
    expect(xAxisProps).toMatchObject({ type: 'number', scale: 'time', domain: [from, to] });
    expect(xAxisProps.ticks).toEqual([from, from + 7.5 * day, from + 15 * day, from + 22.5 * day, to]);
  });

  it('writes its ticks as moments, with the day once the period is over a day, and the tooltip always with it', () => {
    const { xAxisProps, tooltipProps } = periodAxis({ from, to });
    expect(xAxisProps.tickFormatter(from)).toBe('01.01 00:00');
    expect(tooltipProps.labelFormatter(from + 15 * day)).toBe('16.01 00:00');
    const hours = periodAxis({ from, to: from + 3_600_000 });
    expect(hours.xAxisProps.tickFormatter(from + 1_800_000)).toBe('00:30');
    // The last 24 hours: the ticks are times of day; a point's tooltip says which day it was.
    expect(hours.tooltipProps.labelFormatter(from + 1_800_000)).toBe('01.01 00:30');
  });
});

describe('chartTimeLabel', () => {
  it('writes hours and minutes, and the day and month once the period is longer than a day', () => {
    const moment = new Date(2030, 0, 5, 7, 3).getTime();
    expect(chartTimeLabel(moment, 3_600_000)).toBe('07:03');
    expect(chartTimeLabel(moment, 2 * 86_400_000)).toBe('05.01 07:03');
  });
});
