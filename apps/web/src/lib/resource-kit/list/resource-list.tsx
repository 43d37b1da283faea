// A resource's list page: search, the filters of its list spec, a sortable, paged table of its columns
// (links to each record), CSV export of the same view, and every part of the view kept in the URL.
import { Badge, Button, Collapse, Group, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import 'mantine-datatable/styles.layer.css';
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { recordLabels } from '@careplane/shared/common/label-context';
import { columnRelations } from '@careplane/shared/common/list-columns';
import type { AnyListSpec } from '@careplane/shared/common/list-spec';
import { CellText } from '../cells.tsx';
import { LoadFailed } from '../load-failed.tsx';
import { PageHeader } from '../page-header.tsx';
import type { ResourceDescription } from '../resource.ts';
import { useLanguage } from '@/lib/i18n/language.ts';
import { inSentence, uiText } from '@/lib/i18n/translation.ts';
import { exportCsv } from './csv-export.ts';
import classes from './resource-list.module.css';
import { FilterPanel, SearchBox } from './filter-controls.tsx';
import { usePagerSize } from './page-controls.tsx';
import {
  PAGE_SIZES,
  activeFilterCount,
  parseListUrl,
  serializeListState,
  toListRequest,
  withFilter,
  withPage,
  withPageSize,
  withSearch,
  withSort,
  withoutFilters,
  type ListState,
  type PageSize,
} from './list-url.ts';
import { notify } from '@/lib/notify.ts';
import { WIDER_THAN_PHONE } from '@/lib/screen-widths.ts';

/** The list view held in the URL: reading it, and changing it as a new history entry. */
export function useListView(spec: AnyListSpec) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseListUrl(params, spec), [params, spec]);
  // Changes build on the newest view asked for, not on the one a control last drew: the router renders a
  // navigation as a transition, so a second change (a page after a sort) can come before the first has
  // drawn, and it must keep the first.
  const latest = useRef(params);
  const drawn = useRef(params);
  if (drawn.current !== params) {
    drawn.current = params;
    latest.current = params;
  }
  const update = useCallback(
    (change: (current: ListState) => ListState, options: { replace?: boolean } = {}) => {
      const next = serializeListState(change(parseListUrl(latest.current, spec)), spec);
      latest.current = next;
      setParams(next, { preventScrollReset: true, replace: options.replace ?? false });
    },
    [spec, setParams],
  );
  return [state, update] as const;
}

const paginationLabels = {
  first: 'list.firstPage',
  previous: 'list.previousPage',
  next: 'list.nextPage',
  last: 'list.lastPage',
} as const;

// mantine-datatable names its sort icons to screen readers in English, whatever the page's language, and offers
// no way to change the words: they are renamed once drawn, after every render that may have drawn them.
const SORT_ICON = 'mantine-datatable-header-cell-sortable-icon';
const UNSORTED_ICON = 'mantine-datatable-header-cell-sortable-unsorted-icon';
function useSortIconLabels(table: RefObject<HTMLTableElement | null>) {
  const { t } = useTranslation('kit');
  useLayoutEffect(() => {
    const icons = table.current?.querySelectorAll<HTMLElement>(`.${SORT_ICON}, .${UNSORTED_ICON}`) ?? [];
    for (const icon of icons) {
      const label = icon.classList.contains(UNSORTED_ICON)
        ? t('list.notSorted')
        : icon.classList.contains(`${SORT_ICON}-reversed`)
          ? t('list.sortedDescending')
          : t('list.sortedAscending');
      if (icon.getAttribute('aria-label') !== label) icon.setAttribute('aria-label', label);
    }
  });
}

export interface ResourceListProps<Item extends { id: string }> {
  resource: ResourceDescription<Item>;
  /** A title other than the resource's (the patients list over users). */
  title?: string;
  subtitle?: ReactNode;
  /** Extra actions beside New and Export CSV. */
  actions?: ReactNode;
  /** Label of the create button; none hides it. */
  createLabel?: string | null;
}

export function ResourceList<Item extends { id: string }>({
  resource,
  title: givenTitle,
  subtitle,
  actions,
  createLabel,
}: ResourceListProps<Item>) {
  const { t } = useTranslation('kit');
  const language = useLanguage();
  // The cells' words (statuses, roles, Yes/No, dates) in the language shown; dates follow its era.
  const labels = useMemo(() => recordLabels(language), [language]);
  const pagerSize = usePagerSize();
  const { spec, columns, queries } = resource;
  const title = givenTitle ?? uiText(resource.title);
  const [state, update] = useListView(spec);
  const active = activeFilterCount(state);
  const [filtersOpen, filters] = useDisclosure(Object.keys(state.filters).length > 0);
  const [exporting, setExporting] = useState(false);
  const panelId = useId();
  const table = useRef<HTMLTableElement | null>(null);
  const tableRef = useCallback((element: HTMLTableElement | null) => {
    table.current = element;
  }, []);
  useSortIconLabels(table);

  const fixed = useMemo(() => Object.entries(resource.fixedFilters ?? {}), [resource.fixedFilters]);
  const request = useMemo(
    () =>
      toListRequest(state, spec, {
        relations: columnRelations(columns),
        fixedFilters: fixed.map(([path, value]) => `${path}~${value}`),
      }),
    [state, spec, columns, fixed],
  );
  // The rows come without their total (count=false); the total is asked apart and fills in when it comes.
  const list = useQuery(queries.list({ ...request, count: 'false' }));
  const total = useQuery(
    queries.count(request.filters, {
      filtersLike: request.filtersLike,
      ...(request.from !== undefined ? { from: request.from } : {}),
      ...(request.to !== undefined ? { to: request.to } : {}),
    }),
  );

  // A page past the last (an old link, or the last rows deleted or filtered away) shows the last page that has
  // rows, in place of the link, rather than an empty list without its pager.
  const lastPage = total.data === undefined ? undefined : Math.max(1, Math.ceil(total.data / state.pageSize));
  useEffect(() => {
    if (lastPage !== undefined && state.page > lastPage)
      update((current) => withPage(current, lastPage), { replace: true });
  }, [lastPage, state.page, update]);

  const tableColumns = useMemo<DataTableColumn<Item>[]>(
    () =>
      columns.map((column, index) => {
        const link =
          resource.cellLinks?.[column.key] ??
          (index === 0 ? (item: Item) => resource.paths.detail(item.id) : undefined);
        const onPhone = resource.phoneColumns ? resource.phoneColumns.includes(column.key) : index < 2;
        return {
          accessor: column.key,
          title: uiText(resource.columnTitles?.[column.key] ?? column.title),
          sortable: Boolean(column.sort),
          // A phone shows the columns that name the record; its page shows the rest.
          visibleMediaQuery: onPhone ? undefined : WIDER_THAN_PHONE,
          titleClassName: classes.cell,
          cellsClassName:
            index === 0
              ? `${classes.cell} ${classes.naming}`
              : column.truncate
                ? `${classes.cell} ${classes.long}`
                : classes.cell,
          render: (item: Item) => {
            const cell = (
              <CellText value={column.value(item, labels)} truncateAt={column.truncate} to={link?.(item)} />
            );
            const note = resource.cellNotes?.[column.key]?.(item);
            return note ? (
              <>
                {cell}
                <Text size="xs" c="dimmed">
                  {note}
                </Text>
              </>
            ) : (
              cell
            );
          },
        };
      }),
    // The headers are read from the catalog of the language shown: a change of language draws them again.
    [columns, resource, labels, t],
  );

  const sort = state.sort ?? spec.defaultSort;
  const sortStatus: DataTableSortStatus<Item> = {
    columnAccessor: columns.find((column) => column.sort === sort.path)?.key ?? '',
    direction: sort.direction,
  };
  const onSortStatusChange = (status: DataTableSortStatus<Item>) => {
    const column = columns.find((entry) => entry.key === status.columnAccessor);
    const path = column?.sort;
    if (!path) return;
    // Another column starts in ascending order; the same column turns round.
    const direction = path === sort.path ? status.direction : 'asc';
    update((current) => withSort(current, { path, direction }));
  };

  const download = async () => {
    setExporting(true);
    try {
      await exportCsv(queries.endpoints.list, request, title, resource.exportView);
    } catch (error) {
      notify({
        color: 'red',
        title: t('list.couldNotExport'),
        message: error instanceof Error ? error.message : String(error),
      });
    } finally {
      setExporting(false);
    }
  };

  const create = resource.paths.create?.();
  const createText =
    createLabel === undefined ? t('list.newRecord', { noun: uiText(resource.noun) }) : createLabel;
  const items = list.data?.items ?? [];
  const things = inSentence(title);
  const empty = active > 0 ? t('list.emptyFiltered', { things }) : t('list.empty', { things });

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        subtitle={subtitle}
        actions={
          <>
            {actions}
            <Button variant="default" onClick={() => void download()} loading={exporting}>
              {t('list.exportCsv')}
            </Button>
            {create && createText ? (
              <Button component={Link} to={create}>
                {createText}
              </Button>
            ) : null}
          </>
        }
      />
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <SearchBox
          spec={spec}
          search={state.search}
          defaultPath={resource.defaultSearch}
          labels={resource.labels}
          onChange={(path, text) => update((current) => withSearch(current, path, text))}
        />
        <Group gap="xs">
          {active > 0 ? (
            <Button variant="subtle" onClick={() => update(withoutFilters)}>
              {t('list.clearAll')}
            </Button>
          ) : null}
          <Button
            variant={filtersOpen ? 'filled' : 'default'}
            onClick={filters.toggle}
            aria-expanded={filtersOpen}
            aria-controls={panelId}
            rightSection={
              Object.keys(state.filters).length ? (
                <Badge
                  size="sm"
                  circle
                  aria-label={t('list.activeFilters', { number: Object.keys(state.filters).length })}
                >
                  {Object.keys(state.filters).length}
                </Badge>
              ) : null
            }
          >
            {t('list.filters')}
          </Button>
        </Group>
      </Group>
      <Collapse expanded={filtersOpen}>
        <Paper withBorder p="sm" id={panelId} role="group" aria-label={t('list.filters')}>
          <FilterPanel
            spec={spec}
            filters={state.filters}
            labels={resource.labels}
            optionLabels={resource.optionLabels}
            hidden={fixed.map(([path]) => path)}
            onChange={(path, value) => update((current) => withFilter(current, path, value))}
            onClear={() => update((current) => ({ ...current, filters: {}, page: 1 }))}
          />
        </Paper>
      </Collapse>
      {list.isError ? (
        <LoadFailed things={title} error={list.error} onRetry={() => void list.refetch()} />
      ) : null}
      <DataTable<Item>
        aria-label={title}
        tableRef={tableRef}
        withTableBorder
        borderRadius="md"
        striped
        highlightOnHover
        verticalAlign="top"
        minHeight={items.length ? undefined : 180}
        // Wider than the screen: the scrollbar shows there is more (as wide tables do, app/theme.ts), in a
        // space of its own below the rows rather than over the last one.
        scrollAreaProps={{ type: 'auto', offsetScrollbars: 'present' }}
        // The record's name stays in sight while the row is scrolled sideways to its last columns.
        pinFirstColumn
        className={classes.list}
        idAccessor="id"
        columns={tableColumns}
        records={items}
        fetching={list.isFetching}
        loadingText={t('loading')}
        // A failed read is said above the table: it never reads as an empty list.
        noRecordsText={
          list.isPending ? t('loading') : list.isError ? t('list.couldNotLoad', { things }) : empty
        }
        sortStatus={sortStatus}
        onSortStatusChange={onSortStatusChange}
        page={state.page}
        onPageChange={(page) => update((current) => withPage(current, page))}
        totalRecords={total.data}
        recordsPerPage={state.pageSize}
        recordsPerPageOptions={[...PAGE_SIZES]}
        onRecordsPerPageChange={(size) => update((current) => withPageSize(current, size as PageSize))}
        recordsPerPageLabel={t('list.rowsPerPage')}
        paginationText={({ from, to, totalRecords }) =>
          t('list.pagination', { from, to, total: totalRecords })
        }
        getPaginationControlProps={(control) => ({ 'aria-label': t(paginationLabels[control]) })}
        getPaginationItemProps={(page) => ({ 'aria-label': t('list.page', { page }) })}
        paginationWrapBreakpoint="sm"
        paginationSize={pagerSize}
      />
    </Stack>
  );
}
