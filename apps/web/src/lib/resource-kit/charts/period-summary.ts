// A chart over a period (an IoT device's readings, a device's stats): points at their moments, and a
// period the server summed up (packages/shared/src/common/period-summary.ts) drawn as each line's means with its
// highest and lowest values beside them, so that a short spike the mean smooths away still shows.
import i18next from 'i18next';
import type { PeriodSummary } from '@careplane/shared/common/period-summary';
import type { SeriesLine } from './series-chart.tsx';

/** Equal parts a period with more records than a page is cut into. */
export const CHART_SUMMARY_PARTS = 120;

/** What a summed-up line is drawn as: its mean, and its highest and lowest values dashed beside it. */
export type SummaryPart = 'mean' | 'highest' | 'lowest';

const EXTREMES = [
  { suffix: 'Highest', key: 'max', part: 'highest' },
  { suffix: 'Lowest', key: 'min', part: 'lowest' },
] as const;

/**
 * One point per part of the period that has records, at the part's start (`at`, for a chart over the period):
 * for each named line its mean (`<name>`), highest (`<name>Highest`) and lowest (`<name>Lowest`); a line the
 * part's records did not carry is a gap (null).
 */
export function summaryPoints(summary: PeriodSummary, names: readonly string[]) {
  return summary.buckets.map((bucket) => {
    const point: Record<string, string | number | null> = { at: bucket.from };
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
