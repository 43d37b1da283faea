// A chart inside a labelled figure, its drawing code loaded on first use; a text summary goes with it so the
// figure says something without the picture.
import { Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import i18next from 'i18next';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { SeriesChartProps } from './series-chart.tsx';

const SeriesChart = lazy(async () => ({ default: (await import('./series-chart.tsx')).SeriesChart }));

export interface ChartFigureProps extends SeriesChartProps {
  title: string;
  /** What the chart shows, in words (for screen readers and as the figure's description). */
  summary: string;
  empty?: string;
  /**
   * The read the data comes from. Until it first answers, the figure says it is loading, or offline that it
   * waits for the network: never that there is no data (a care team read a heart rate's "no data" so).
   */
  read?: Pick<UseQueryResult, 'status' | 'fetchStatus'>;
}

/** What a figure says while its read has not answered yet, or undefined once it has (or failed). */
export function waitingText(read: ChartFigureProps['read']): string | undefined {
  if (read?.status !== 'pending') return undefined;
  return read.fetchStatus === 'paused' ? i18next.t('kit:network.offline') : i18next.t('kit:chart.loading');
}

export function ChartFigure({ title, summary, empty, read, ...chart }: ChartFigureProps) {
  const { t } = useTranslation('kit');
  const waiting = waitingText(read);
  return (
    <Stack component="figure" gap={4} m={0} aria-label={title} style={{ minWidth: 0 }}>
      <Text component="figcaption" size="sm" fw={600}>
        {title}
      </Text>
      {/* Waiting, the figure says so in words anyone reads; its summary would count what is not read yet. */}
      {waiting ? null : <VisuallyHidden>{summary}</VisuallyHidden>}
      {waiting ? (
        <Text size="sm" c="dimmed" py="md" role="status">
          {waiting}
        </Text>
      ) : chart.data.length ? (
        <div aria-hidden="true">
          <Suspense fallback={<Skeleton h={chart.h ?? 240} />}>
            <SeriesChart {...chart} />
          </Suspense>
        </div>
      ) : (
        <Text size="sm" c="dimmed" py="md">
          {empty ?? t('chart.noData')}
        </Text>
      )}
    </Stack>
  );
}
