// The alerts page (docs/decisions/038): every alert, latest first, narrowed by state (open by default),
// severity, command center, IoT device and patient, all kept in the URL; each acknowledged and closed from
// here. The admin area's live events refresh it when an alert opens or changes.
import {
  Alert as Notice,
  Card,
  Group,
  Loader,
  Pagination,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { alertSeverities } from '@careplane/shared/alerts/alerts.contract';
import { PageHeader } from '@/lib/resource-kit/page-header.tsx';
import { RelationSelect } from '@/lib/resource-kit/relation-select.tsx';
import { ALERTS_PAGE_SIZE, alertsPageQuery, type AlertFilters } from '../api/alerts.queries.ts';
import { AlertEntry } from './alert-entry.tsx';

const statuses = [
  { value: 'active', label: 'Open' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
] as const;

function filtersOf(params: URLSearchParams): AlertFilters {
  const status = params.get('status');
  const severity = params.get('severity');
  return {
    status: status === 'closed' || status === 'all' ? status : 'active',
    severity: severity && (alertSeverities as readonly string[]).includes(severity) ? severity : null,
    commandCenter: params.get('commandCenter'),
    iotDevice: params.get('iotDevice'),
    patient: params.get('patient'),
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

export function AlertsPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const alerts = useQuery(alertsPageQuery(filters));

  /** Changes one parameter; any change but the page's goes back to the first page. */
  const set = (key: keyof AlertFilters, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === '' || (key === 'status' && value === 'active')) next.delete(key);
        else next.set(key, value);
        if (key !== 'page') next.delete('page');
        return next;
      },
      { replace: key !== 'page' },
    );

  const total = alerts.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ALERTS_PAGE_SIZE));
  const state = statuses.find((entry) => entry.value === filters.status)!.label.toLowerCase();
  return (
    <Stack gap="md">
      <PageHeader
        title="Alerts"
        subtitle={
          alerts.data
            ? `${total} ${filters.status === 'all' ? '' : `${state} `}alert${total === 1 ? '' : 's'}`
            : undefined
        }
      />
      <Card withBorder component="section" aria-label="Filters">
        <Stack gap="sm">
          <SegmentedControl
            aria-label="State"
            data={[...statuses]}
            value={filters.status}
            onChange={(value) => set('status', value)}
            w="fit-content"
          />
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            <Select
              label="Severity"
              placeholder="Any"
              clearable
              data={alertSeverities.map((severity) => ({ value: severity, label: severity }))}
              value={filters.severity}
              onChange={(value) => set('severity', value)}
            />
            <RelationSelect
              resource="command-centers"
              label="Command center"
              placeholder="Any"
              value={filters.commandCenter}
              onChange={(value) => set('commandCenter', value)}
            />
            <RelationSelect
              resource="iot-devices"
              label="IoT device"
              placeholder="Any"
              value={filters.iotDevice}
              onChange={(value) => set('iotDevice', value)}
            />
            <RelationSelect
              resource="users"
              label="Patient"
              placeholder="Anyone"
              value={filters.patient}
              onChange={(value) => set('patient', value)}
            />
          </SimpleGrid>
        </Stack>
      </Card>
      <Card withBorder component="section" aria-label="Alerts">
        {alerts.isPending ? (
          <Loader size="sm" role="status" aria-label="Loading the alerts" />
        ) : alerts.isError ? (
          <Notice color="red" title="Could not load the alerts.">
            {alerts.error.message}
          </Notice>
        ) : alerts.data.items.length ? (
          <Stack gap="md">
            <Stack gap="lg" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Alerts">
              {alerts.data.items.map((alert) => (
                <AlertEntry key={alert.id} alert={alert} />
              ))}
            </Stack>
            {pages > 1 ? (
              <Group justify="center">
                <Pagination
                  total={pages}
                  value={Math.min(filters.page, pages)}
                  onChange={(page) => set('page', String(page))}
                  getControlProps={(control) => ({ 'aria-label': `${control} page` })}
                  getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
                />
              </Group>
            ) : null}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            No alerts match.
          </Text>
        )}
      </Card>
    </Stack>
  );
}
