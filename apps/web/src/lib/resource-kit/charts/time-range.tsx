// The range a chart covers: a recent period in one click, or two chosen days.
import { Group, SegmentedControl } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import '@mantine/dates/styles.layer.css';
import i18next from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddressParam } from '@/lib/address-param.ts';
import { datePickerInputFormats } from '@/lib/i18n/date-picker-formats.ts';
import { useLanguage } from '@/lib/i18n/language.ts';

export const rangePresets = {
  '1h': 60 * 60_000,
  '6h': 6 * 60 * 60_000,
  '24h': 24 * 60 * 60_000,
  '7d': 7 * 24 * 60 * 60_000,
  '30d': 30 * 24 * 60 * 60_000,
} as const;
export type RangePreset = keyof typeof rangePresets;

/** The period a chart opens on, and returns to when its chosen days are cleared. */
export const DEFAULT_PRESET: RangePreset = '24h';

export interface TimeRange {
  preset: RangePreset | 'custom';
  from: number;
  to: number;
}

/** A recent period, ending now. */
export const recentRange = (preset: RangePreset, now = Date.now()): TimeRange => ({
  preset,
  from: now - rangePresets[preset],
  to: now,
});

const dayStart = (value: string) => new Date(`${value}T00:00:00`).getTime();
const isoDay = (time: number) => {
  const date = new Date(time);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};

const isPreset = (value: string): value is RangePreset => Object.hasOwn(rangePresets, value);

/** Two chosen days in the address: `2026-11-10..2026-11-12`. */
const DAYS_IN_ADDRESS = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;

/**
 * A range as the address keeps it: a recent period by its name (`7d`, reckoned from now when the page opens) or
 * two days (`2026-11-10..2026-11-12`); the default period is not written.
 */
export function rangeToParam(range: TimeRange): string | null {
  if (range.preset !== 'custom') return range.preset === DEFAULT_PRESET ? null : range.preset;
  return `${isoDay(range.from)}..${isoDay(range.to)}`;
}

/** The range an address names; the default period for none, or for one that is not a period or two days. */
export function rangeFromParam(param: string | null, now = Date.now()): TimeRange {
  if (param && isPreset(param)) return recentRange(param, now);
  const days = param ? DAYS_IN_ADDRESS.exec(param) : null;
  if (days) {
    const from = dayStart(days[1]!);
    const to = dayStart(days[2]!) + 86_400_000 - 1;
    if (Number.isFinite(from) && Number.isFinite(to) && from <= to) return { preset: 'custom', from, to };
  }
  return recentRange(DEFAULT_PRESET, now);
}

/**
 * A chart's range kept in the page's address (`?period=`), so that a reload, a shared link or Back shows the
 * same period. Choosing another replaces the address rather than adding to the history, as list filters do.
 */
export function useRangeInAddress(key = 'period'): [TimeRange, (range: TimeRange) => void] {
  const [param, setParam] = useAddressParam(key);
  // A recent period is reckoned from now once per choice, not at every render (the queries are keyed on it).
  const range = useMemo(() => rangeFromParam(param), [param]);
  return [range, (next: TimeRange) => setParam(rangeToParam(next))];
}

const labels: Record<RangePreset, () => string> = {
  '1h': () => i18next.t('kit:chart.hours', { number: 1 }),
  '6h': () => i18next.t('kit:chart.hours', { number: 6 }),
  '24h': () => i18next.t('kit:chart.hours', { number: 24 }),
  '7d': () => i18next.t('kit:chart.daysCount', { count: 7 }),
  '30d': () => i18next.t('kit:chart.daysCount', { count: 30 }),
};

export function TimeRangePicker({
  value,
  onChange,
  label,
}: {
  value: TimeRange;
  onChange: (range: TimeRange) => void;
  label?: string;
}) {
  const { t } = useTranslation('kit');
  const language = useLanguage();
  // The first day picked waits here for the second: the chart's range changes only once both are chosen, and
  // without this the picker, controlled by that range, would forget the first click.
  const [firstDay, setFirstDay] = useState<DatesRangeValue<string> | null>(null);
  const chosenDays: DatesRangeValue<string> =
    value.preset === 'custom' ? [isoDay(value.from), isoDay(value.to)] : [null, null];
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <SegmentedControl
        aria-label={label ?? t('chart.period')}
        size="xs"
        value={value.preset}
        onChange={(preset) => {
          if (preset !== 'custom') {
            setFirstDay(null);
            onChange(recentRange(preset as RangePreset));
          }
        }}
        data={[
          ...Object.entries(labels).map(([key, text]) => ({ value: key, label: text() })),
          { value: 'custom', label: t('chart.days'), disabled: true },
        ]}
        styles={{ root: { maxWidth: '100%', overflowX: 'auto' } }}
      />
      <DatePickerInput
        type="range"
        size="xs"
        label={t('chart.orPickDays')}
        {...datePickerInputFormats(language)}
        maxDate={isoDay(Date.now())}
        value={firstDay ?? chosenDays}
        onChange={([start, end]) => {
          if (start && end) {
            setFirstDay(null);
            onChange({ preset: 'custom', from: dayStart(start), to: dayStart(end) + 86_400_000 - 1 });
          } else if (start || end) setFirstDay([start, end]);
          else {
            setFirstDay(null);
            if (value.preset === 'custom') onChange(recentRange(DEFAULT_PRESET));
          }
        }}
        onDropdownClose={() => setFirstDay(null)}
        allowSingleDateInRange
        clearable
        clearButtonProps={{ 'aria-label': t('chart.clearDays') }}
        w={220}
        popoverProps={{ withinPortal: true }}
      />
    </Group>
  );
}
