// Time series drawn with @mantine/charts (recharts underneath). This module is heavy: it is loaded through
// lazy-series-chart.tsx, only on the pages that draw a chart.
import { AreaChart, BarChart, LineChart } from '@mantine/charts';
import '@mantine/charts/styles.layer.css';

export interface SeriesLine {
  name: string;
  label?: string;
  color: string;
}

export interface SeriesChartProps {
  kind: 'line' | 'area' | 'bar';
  data: Record<string, string | number | null>[];
  dataKey: string;
  series: SeriesLine[];
  unit?: string;
  h?: number;
  yDomain?: [number, number];
}

export function SeriesChart({ kind, data, dataKey, series, unit, h = 240, yDomain }: SeriesChartProps) {
  const common = {
    h,
    data,
    dataKey,
    series,
    unit,
    withLegend: series.length > 1,
    legendProps: { verticalAlign: 'bottom' as const, height: 40 },
    tooltipAnimationDuration: 150,
    yAxisProps: yDomain ? { domain: yDomain } : undefined,
    valueFormatter: (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1)),
  };
  // The figure around the chart carries its meaning in words; the drawing itself takes no focus.
  const quiet = { accessibilityLayer: false };
  if (kind === 'bar') return <BarChart {...common} barChartProps={quiet} />;
  if (kind === 'area')
    return <AreaChart {...common} areaChartProps={quiet} curveType="monotone" withDots={false} />;
  return (
    <LineChart
      {...common}
      lineChartProps={quiet}
      curveType="monotone"
      withDots={data.length < 40}
      connectNulls
    />
  );
}
