// Pickers of related records that search the server as one types (`filtersLike` on the resource's name
// paths) and show names, never raw ids. Chosen records are read by id so their names show at once.
import { Loader, MultiSelect, Select, Stack, Text, type ComboboxItem } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResourceName } from '@careplane/shared/common/list-spec';
import type { RecordLike } from '@careplane/shared/common/record-labels';
import { referenceQueries } from './queries.ts';
import { uiText } from '@/lib/i18n/translation.ts';
import { referenceSource } from './references.ts';

interface CommonProps {
  resource: ResourceName;
  label: string;
  description?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  placeholder?: string;
  disabled?: boolean;
  /** Exact filters every search carries, e.g. `localRoles~patient`. */
  filters?: readonly string[];
  /** Records to leave out of the choices (the record itself, those already linked). */
  exclude?: readonly string[];
  'data-testid'?: string;
  w?: number | string;
}

interface Option extends ComboboxItem {
  description?: string;
}

const SEARCH_DELAY_MS = 250;
const showAll = ({ options }: { options: unknown[] }) => options as never;

function useRelationOptions(
  resource: ResourceName,
  chosenIds: readonly string[],
  search: string,
  opened: boolean,
  filters: readonly string[],
  exclude: readonly string[],
) {
  const { t } = useTranslation('kit');
  const source = referenceSource(resource);
  const [text] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const results = useQuery({ ...referenceQueries.search(resource, text, filters), enabled: opened });
  const chosen = useQuery({ ...referenceQueries.byIds(resource, chosenIds), enabled: chosenIds.length > 0 });
  const options = useMemo(() => {
    const toOption = (record: RecordLike): Option => ({
      value: record.id,
      label: source?.label(record) ?? record.id,
      description: source?.description?.(record),
    });
    const byId = new Map<string, Option>();
    for (const record of chosen.data ?? []) byId.set(record.id, toOption(record));
    for (const record of results.data ?? []) {
      if (!byId.has(record.id) && !exclude.includes(record.id)) byId.set(record.id, toOption(record));
    }
    return [...byId.values()];
  }, [chosen.data, results.data, source, exclude]);
  return {
    options,
    searching: results.isFetching,
    naming: chosen.isPending && chosenIds.length > 0,
    nothingFound: text ? t('relation.nothingFound') : t('relation.typeToSearch'),
  };
}

const renderOption = ({ option }: { option: ComboboxItem }) => {
  const { label, description } = option as Option;
  return (
    <Stack gap={0}>
      <Text size="sm">{label}</Text>
      {description ? (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      ) : null}
    </Stack>
  );
};

export interface RelationSelectProps extends CommonProps {
  value: string | null;
  onChange: (value: string | null) => void;
  clearable?: boolean;
}

export function RelationSelect({
  resource,
  value,
  onChange,
  filters = [],
  exclude = [],
  clearable = true,
  placeholder,
  ...props
}: RelationSelectProps) {
  const [search, setSearch] = useState('');
  const [opened, setOpened] = useState(false);
  const chosenIds = useMemo(() => (value ? [value] : []), [value]);
  const { options, searching, naming, nothingFound } = useRelationOptions(
    resource,
    chosenIds,
    search,
    opened,
    filters,
    exclude,
  );
  const { t } = useTranslation('kit');
  const noun = uiText(referenceSource(resource)?.noun ?? t('nouns.record'));
  return (
    <Select
      {...props}
      data={options}
      value={value}
      onChange={(next) => onChange(next)}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => setOpened(true)}
      // A field in error takes the focus after a refused submit: opening the list then would cover the error it
      // should show. It opens on a click, a key or typing, as always.
      openOnFocus={!props.error}
      filter={showAll}
      clearable={clearable}
      nothingFoundMessage={searching ? t('searching') : nothingFound}
      placeholder={naming ? t('loading') : (placeholder ?? t('relation.searchFor', { noun }))}
      renderOption={renderOption}
      rightSection={
        searching ? <Loader size="xs" role="status" aria-label={t('relation.searchingLabel')} /> : undefined
      }
      comboboxProps={{ withinPortal: true }}
    />
  );
}

export interface RelationMultiSelectProps extends CommonProps {
  value: readonly string[];
  onChange: (value: string[]) => void;
}

export function RelationMultiSelect({
  resource,
  value,
  onChange,
  filters = [],
  exclude = [],
  placeholder,
  ...props
}: RelationMultiSelectProps) {
  const [search, setSearch] = useState('');
  const [opened, setOpened] = useState(false);
  const { options, searching, naming, nothingFound } = useRelationOptions(
    resource,
    value,
    search,
    opened,
    filters,
    exclude,
  );
  const { t } = useTranslation('kit');
  const noun = uiText(referenceSource(resource)?.noun ?? t('nouns.record'));
  return (
    <MultiSelect
      {...props}
      data={options}
      value={[...value]}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => setOpened(true)}
      // A field in error takes the focus after a refused submit: opening the list then would cover the error it
      // should show. It opens on a click, a key or typing, as always.
      openOnFocus={!props.error}
      filter={showAll}
      hidePickedOptions
      nothingFoundMessage={searching ? t('searching') : nothingFound}
      placeholder={
        naming ? t('loading') : value.length ? undefined : (placeholder ?? t('relation.searchFor', { noun }))
      }
      renderOption={renderOption}
      rightSection={
        searching ? <Loader size="xs" role="status" aria-label={t('relation.searchingLabel')} /> : undefined
      }
      comboboxProps={{ withinPortal: true }}
    />
  );
}
