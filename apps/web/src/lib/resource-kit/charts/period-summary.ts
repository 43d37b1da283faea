// A chart over a period (an IoT device's readings, a device's stats): points in time labelled for the axis, and a
// period the server summed up (packages/shared/src/common/period-summary.ts) drawn as each line's means with its
// highest and lowest values beside them, so that a short spike the mean smooths away still shows.
import i18next from 'i18next';
import type { PeriodSummary } from '@careplane/shared/common/period-summary';
import type { SeriesLine } from './series-chart.tsx';

/** Equal parts a period with more records than a page is cut into. */
export const CHART_SUMMARY_PARTS = 120;

/** A moment on a chart's axis: hours and minutes, with the day and month when the period is over a day. */
export function chartTimeLabel(timestamp: number, span: number) {
  const date = new Date(timestamp);
  const time = `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
  return span > 86_400_000
    ? `${String(date.getDate()).padStart(2, '0')}.${String(date.getMonth() + 1).padStart(2, '0')} ${time}`
    : time;
}

/** What a summed-up line is drawn as: its mean, and its highest and lowest values dashed beside it. */
export type SummaryPart = 'mean' | 'highest' | 'lowest';

const EXTREMES = [
  { suffix: 'Highest', key: 'max', part: 'highest' },
  { suffix: 'Lowest', key: 'min', part: 'lowest' },
] as const;

/**
 * One point per part of the period that has records: for each named line its mean (`<name>`), highest
 * (`<name>Highest`) and lowest (`<name>Lowest`); a line the part's records did not carry is a gap (null).
 */
export function summaryPoints(summary: PeriodSummary, names: readonly string[], span: number) {
  return summary.buckets.map((bucket) => {
    const point: Record<string, string | number | null> = { time: chartTimeLabel(bucket.from, span) };
    for (const name of names) {
      const values = bucket.values[name];
      point[name] = values?.avg ?? null;
      for (const { suffix, key } of EXTREMES) point[`${name}${suffix}`] = values?.[key] ?? null;
    }
    return point;
  });
}

/**
 * The lines of a summed-up period: each mean solid, its highest and lowest dashed in a lighter shade, each named
 * after the line's own label ("Heart rate, highest").
 */
export function summarySeries(lines: readonly SeriesLine[]): SeriesLine[] {
  const text = (line: SeriesLine, part: SummaryPart) =>
    i18next.t(`kit:chart.${part}`, { line: line.label ?? line.name });
  const lighter = (color: string) => color.replace(/\.\d$/, '.4');
  return lines.flatMap((line) => [
    { name: line.name, label: text(line, 'mean'), color: line.color },
    ...EXTREMES.map(({ suffix, part }) => ({
      name: `${line.name}${suffix}`,
      label: text(line, part),
      color: lighter(line.color),
      strokeDasharray: '5 4',
    })),
  ]);
}
