// Time series drawn with @mantine/charts (recharts underneath). This module is heavy: it is loaded through
// lazy-series-chart.tsx, only on the pages that draw a chart.
import { AreaChart, BarChart, LineChart } from '@mantine/charts';
import '@mantine/charts/styles.layer.css';

export interface SeriesLine {
  name: string;
  label?: string;
  color: string;
  /** A dashed line ('5 4': dash, gap), for what accompanies a solid one. */
  strokeDasharray?: string;
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

/**
 * A value as the chart's axis and tooltip write it: whole numbers as they are, others with enough digits that a
 * gridline reads as the value it stands at (0.25, not 0.3) and a small value does not read as 0: three significant
 * digits below 1, at most three decimals above.
 */
export function chartValue(value: number): string {
  if (!Number.isFinite(value) || Number.isInteger(value)) return String(value);
  return String(Number(Math.abs(value) < 1 ? value.toPrecision(3) : value.toFixed(3)));
}

export function SeriesChart({ kind, data, dataKey, series, unit, h = 240, yDomain }: SeriesChartProps) {
  const common = {
    h,
    data,
    dataKey,
    series,
    unit,
    withLegend: series.length > 1,
    // The legend takes the height its names need (Thai names wrap onto lines of their own on a phone).
    legendProps: { verticalAlign: 'bottom' as const },
    tooltipAnimationDuration: 150,
    // Wide enough for a value and its unit on one line ("100 /min" wrapped onto two at recharts' 60 px).
    yAxisProps: { ...(yDomain ? { domain: yDomain } : {}), width: 44 + 7 * (unit?.length ?? 0) },
    valueFormatter: chartValue,
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
