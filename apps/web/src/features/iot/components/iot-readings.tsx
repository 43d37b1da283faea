// An IoT device's readings (spec §2): the last data submission, and a chart of one data type over a chosen
// period (battery level, heart rate, temperature, pressure, blood pressure; alerts as a list).
import { Alert, Group, Select, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '@careplane/shared/common/formats';
import type { IotDataRecord, IotDevice } from '@careplane/shared/iot/iot.contract';
import { iotDataTypes } from '@careplane/shared/common/enums';
import { readingText, sentence, unitOf } from '@careplane/shared/iot/reading-text';
import { vitalSignsOf } from '@careplane/shared/iot/vital-signs';
import type { Language } from '@careplane/shared/i18n/language-tags';
import { useAddressParam } from '@/lib/address-param.ts';
import { ChartFigure, waitingText } from '@/lib/resource-kit/charts/lazy-series-chart.tsx';
import {
  CHART_SUMMARY_PARTS,
  summaryPoints,
  summarySeries,
} from '@/lib/resource-kit/charts/period-summary.ts';
import type { SeriesLine } from '@/lib/resource-kit/charts/series-chart.tsx';
import { TimeRangePicker, useRangeInAddress } from '@/lib/resource-kit/charts/time-range.tsx';
import { valueDomain } from '@/lib/resource-kit/charts/value-domain.ts';
import { DetailField, DetailSection, FieldGrid } from '@/lib/resource-kit/detail/detail-parts.tsx';
import { iotDataQueries, type ReadingQueries } from '../api/iot.queries.ts';
import { enumLabel } from '@/lib/i18n/enum-labels.ts';
import { useLanguage } from '@/lib/i18n/language.ts';

/** A line's label is its text in the catalog (`iot:readings.<label>`). */
type LineLabel = 'level' | 'heartRate' | 'temperature' | 'pressure' | 'systolic' | 'diastolic';

interface Measure {
  series: (SeriesLine & { label: LineLabel })[];
}

/** What is drawn for each kind of reading; the unit is the readings' own (reading-text's `unitOf`). */
export const measures: Partial<Record<string, Measure>> = {
  battery: { series: [{ name: 'level', label: 'level', color: 'teal.6' }] },
  heart_rate: { series: [{ name: 'rate', label: 'heartRate', color: 'red.6' }] },
  temperature: { series: [{ name: 'value', label: 'temperature', color: 'orange.6' }] },
  pressure: { series: [{ name: 'value', label: 'pressure', color: 'blue.6' }] },
  blood_pressure: {
    series: [
      { name: 'sys', label: 'systolic', color: 'red.6' },
      { name: 'dias', label: 'diastolic', color: 'blue.6' },
    ],
  },
};

/** The unit the chart of a data type speaks, from the first reading that names one. */
function chartUnit(
  dataType: string,
  measure: Measure,
  records: readonly Pick<IotDataRecord, 'data'>[],
  language: Language,
) {
  const named = records.find((record) => typeof record.data.unit === 'string')?.data;
  return unitOf(dataType, measure.series[0]!.name, named, language);
}

export function readingPoints(records: readonly IotDataRecord[], measure: Measure) {
  return [...records]
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((record) => {
      const point: Record<string, string | number | null> = { at: record.timestamp };
      for (const line of measure.series) {
        const value = record.data[line.name];
        point[line.name] = typeof value === 'number' ? value : null;
      }
      return point;
    });
}

export function LastSubmission({ deviceId }: { deviceId: string }) {
  const last = useQuery(iotDataQueries.last(deviceId));
  const { t } = useTranslation('iot');
  const language = useLanguage();
  return (
    <DetailSection title={t('readings.lastSubmission')}>
      {last.isPending ? (
        <Text size="sm">{t('readings.loading')}</Text>
      ) : last.isError ? (
        <Alert color="red" title={t('readings.lastFailed')}>
          {last.error.message}
        </Alert>
      ) : last.data ? (
        <FieldGrid>
          <DetailField label={t('readings.taken')}>{formatDateTime(last.data.timestamp)}</DetailField>
          <DetailField label={t('readings.dataType')}>
            {enumLabel('iotDataType', last.data.dataType)}
          </DetailField>
          <DetailField label={t('readings.received')}>{formatDateTime(last.data.createdAt)}</DetailField>
          <DetailField label={t('readings.reading')} wide>
            {readingText(last.data.dataType, last.data.data, language)}
          </DetailField>
        </FieldGrid>
      ) : (
        <Text size="sm" c="dimmed">
          {t('readings.noData')}
        </Text>
      )}
    </DetailSection>
  );
}

/**
 * A chart of one type of a device's readings over a period chosen in the address. `queries` says where they are
 * read: the admin calls by default, the care team's for a command center's patient.
 */
export function ReadingsChart({
  device,
  queries = iotDataQueries,
}: {
  device: IotDevice;
  queries?: ReadingQueries;
}) {
  const types = device.supportedDataTypes.length ? device.supportedDataTypes : [...iotDataTypes];
  // The data type and the period are kept in the address, so a reload, a shared link or Back shows the same. A
  // device opens on its first vital sign, not on its battery or its events (decision 106).
  const [asked, setAsked] = useAddressParam('type');
  const first = vitalSignsOf(types)[0] ?? types[0] ?? 'heart_rate';
  const dataType = asked && types.includes(asked) ? asked : first;
  const setDataType = (next: string) => setAsked(next === first ? null : next);
  const [range, setRange] = useRangeInAddress();
  const readings = useQuery(queries.range(device.id, dataType, range.from, range.to));
  const { t } = useTranslation('iot');
  const language = useLanguage();
  const typeText = enumLabel('iotDataType', dataType);
  const records = readings.data?.items ?? [];
  const measure = measures[dataType];
  const total = readings.data?.total ?? 0;
  // More readings than a page: the server sums every one of them up into equal parts of the period.
  const summary = useQuery(
    queries.summary(device.id, dataType, range.from, range.to, Boolean(measure) && total > records.length),
  ).data;
  const averaged = summary && summary.dataType === dataType ? summary : undefined;
  // The summary gives temperatures in degrees Celsius, whatever unit each reading gave.
  const unitSample = averaged && dataType === 'temperature' ? [{ data: { unit: 'C' } }] : records;
  const unit = measure ? chartUnit(dataType, measure, unitSample, language) : '';
  const series = (measure?.series ?? []).map((line) => ({ ...line, label: t(`readings.${line.label}`) }));
  const drawn = averaged ? summarySeries(series) : series;
  const points = measure
    ? averaged
      ? summaryPoints(
          averaged,
          measure.series.map((line) => line.name),
        )
      : readingPoints(records, measure)
    : [];
  // A battery reads against its whole 0–100 %; a vital sign around its values (decision 106).
  const yDomain: [number, number] | undefined =
    dataType === 'battery'
      ? [0, 100]
      : valueDomain(
          points,
          drawn.map((line) => line.name),
        );
  return (
    <DetailSection title={t('readings.title')}>
      <Group gap="md" align="flex-end" wrap="wrap">
        <Select
          label={t('readings.dataType')}
          data={types.map((type) => ({ value: type, label: sentence(enumLabel('iotDataType', type)) }))}
          value={dataType}
          onChange={(next) => next && setDataType(next)}
          allowDeselect={false}
          w={200}
        />
        <TimeRangePicker value={range} onChange={setRange} />
      </Group>
      {readings.isError ? (
        <Alert color="red" title={t('readings.failed')}>
          {readings.error.message}
        </Alert>
      ) : measure ? (
        <ChartFigure
          title={`${sentence(typeText)} (${unit || t('readings.value')})`}
          summary={t('readings.summary', {
            count: averaged ? averaged.total : records.length,
            type: typeText,
            from: formatDateTime(range.from),
            to: formatDateTime(range.to),
          })}
          kind="line"
          data={points}
          dataKey="at"
          period={range}
          series={drawn}
          unit={unit ? ` ${unit}` : undefined}
          yDomain={yDomain}
          h={280}
          read={readings}
        />
      ) : waitingText(readings) ? (
        <Text size="sm" c="dimmed" role="status">
          {waitingText(readings)}
        </Text>
      ) : records.length ? (
        // On a phone the reading wraps beside its time rather than the table running past the screen's edge.
        <Table.ScrollContainer minWidth={280}>
          <Table verticalSpacing="xs" aria-label={t('readings.tableLabel', { type: typeText })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('readings.taken')}</Table.Th>
                <Table.Th>{t('readings.reading')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.map((record) => (
                <Table.Tr key={record.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(record.timestamp)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {readingText(record.dataType, record.data, language)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm" c="dimmed">
          {t('readings.none')}
        </Text>
      )}
      {measure && averaged ? (
        <Text size="xs" c="dimmed">
          {t('readings.averaged', { total: formatNumber(averaged.total), parts: CHART_SUMMARY_PARTS })}
        </Text>
      ) : total > records.length ? (
        <Text size="xs" c="dimmed">
          {t('readings.newestDrawn', { count: records.length, total })}
        </Text>
      ) : null}
    </DetailSection>
  );
}
