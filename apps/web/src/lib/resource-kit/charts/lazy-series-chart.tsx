// A chart inside a labelled figure, its drawing code loaded on first use; a text summary goes with it so the
// figure says something without the picture.
import { Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { SeriesChartProps } from './series-chart.tsx';

const SeriesChart = lazy(async () => ({ default: (await import('./series-chart.tsx')).SeriesChart }));

export interface ChartFigureProps extends SeriesChartProps {
  title: string;
  /** What the chart shows, in words (for screen readers and as the figure's description). */
  summary: string;
  empty?: string;
}

export function ChartFigure({ title, summary, empty, ...chart }: ChartFigureProps) {
  const { t } = useTranslation('kit');
  return (
    <Stack component="figure" gap={4} m={0} aria-label={title} style={{ minWidth: 0 }}>
      <Text component="figcaption" size="sm" fw={600}>
        {title}
      </Text>
      <VisuallyHidden>{summary}</VisuallyHidden>
      {chart.data.length ? (
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
