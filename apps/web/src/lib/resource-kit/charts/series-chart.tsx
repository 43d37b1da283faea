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
  /**
   * The chart is over this period: the axis is time, from its start to its end whatever the records cover, and
   * each point stands at its moment (`dataKey` holds milliseconds). Without it the points stand side by side.
   */
  period?: { from: number; to: number };
}

/** A moment on a chart's axis: hours and minutes, with the day and month when the period is over a day. */
export function chartTimeLabel(timestamp: number, span: number) {
  const date = new Date(timestamp);
  const time = `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
  return span > 86_400_000
    ? `${String(date.getDate()).padStart(2, '0')}.${String(date.getMonth() + 1).padStart(2, '0')} ${time}`
    : time;
}

/** Ticks on a period's axis: its start, its end and three moments evenly between. */
const PERIOD_TICKS = 5;

/**
 * The x axis and the tooltip's heading of a chart over a period. The ticks name the day once the period is over
 * a day; the tooltip always does (a point at 16:45 in the last 24 hours may be yesterday's).
 */
export function periodAxis({ from, to }: { from: number; to: number }) {
  const span = to - from;
  const label = (value: unknown) => chartTimeLabel(Number(value), span);
  const moment = (value: unknown) => chartTimeLabel(Number(value), Infinity);
  return {
    xAxisProps: {
      type: 'number' as const,
      scale: 'time' as const,
      domain: [from, to],
      ticks: Array.from({ length: PERIOD_TICKS }, (_, index) =>
        Math.round(from + (span * index) / (PERIOD_TICKS - 1)),
      ),
      tickFormatter: label,
      interval: 'preserveStartEnd' as const,
    },
    tooltipProps: { labelFormatter: moment },
  };
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

export function SeriesChart({
  kind,
  data,
  dataKey,
  series,
  unit,
  h = 240,
  yDomain,
  period,
}: SeriesChartProps) {
  const common = {
    ...(period ? periodAxis(period) : {}),
    h,
    data,
    dataKey,
    series,
    unit,
    withLegend: series.length > 1,
    // The legend takes the height its names need (Thai names wrap onto lines of their own on a phone).
    legendProps: { verticalAlign: 'bottom' as const },
    tooltipAnimationDuration: 150,
    // The ticks are numbers alone: every figure's title names its unit, and the tooltip writes it with each
    // value. Written on every tick, a Thai unit ("ครั้ง/นาที") took a third of a phone's chart.
    yAxisProps: { ...(yDomain ? { domain: yDomain } : {}), width: 48, unit: undefined },
    // On a phone the tooltip stays within the chart: no wider than the drawing (its names wrap), which recharts
    // keeps it inside; at Mantine's 200 px least width and more, a point on the right half ran off the screen.
    styles: { tooltip: { minWidth: 0, maxWidth: 'min(18rem, 62vw)' } },
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
