import { describe, expect, it } from 'vitest';
import { summaryPoints, summarySeries } from './period-summary.ts';

describe('summaryPoints', () => {
  it('draws one point per part with records, at the mean of each line between its highest and lowest', () => {
    const points = summaryPoints(
      {
        from: 0,
        to: 10,
        bucketMillis: 5,
        total: 3,
        buckets: [{ from: 0, count: 3, values: { sys: { min: 110, avg: 120, max: 130 } } }],
      },
      ['sys', 'dias'],
    );
    expect(points).toHaveLength(1);
    expect(points[0]).toMatchObject({
      at: 0,
      sys: 120,
      sysHighest: 130,
      sysLowest: 110,
    });
    // A line the part's records did not carry is a gap, not a zero.
    expect(points[0]).toMatchObject({ dias: null, diasHighest: null, diasLowest: null });
  });
});

describe('summarySeries', () => {
  it('draws each mean solid and its highest and lowest dashed, lighter, named after the line', () => {
    const series = summarySeries([{ name: 'rate', label: 'Heart rate', color: 'red.6' }]);
    expect(series).toEqual([
      { name: 'rate', label: 'Heart rate, mean', color: 'red.6' },
      { name: 'rateHighest', label: 'Heart rate, highest', color: 'red.4', strokeDasharray: '5 4' },
      { name: 'rateLowest', label: 'Heart rate, lowest', color: 'red.4', strokeDasharray: '5 4' },
    ]);
  });

  it('names every line a key of the points, in order', () => {
    const lines = ['sys', 'dias'].map((name) => ({ name, color: 'blue.6' }));
    const names = summarySeries(lines).map((line) => line.name);
    expect(names).toEqual(['sys', 'sysHighest', 'sysLowest', 'dias', 'diasHighest', 'diasLowest']);
    const [point] = summaryPoints(
      { from: 0, to: 1, bucketMillis: 1, total: 1, buckets: [{ from: 0, count: 1, values: {} }] },
      ['sys', 'dias'],
    );
    expect(Object.keys(point!).filter((key) => key !== 'at')).toEqual(names);
  });
});
