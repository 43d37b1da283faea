// The filter controls of a list, built from its list spec: one labelled control per filter path, by kind
// (a record of another resource is picked by name; an id typed as text must be a uuid; yes/no; one of; any
// of), and the search box over the spec's search paths.
import { Button, Group, MultiSelect, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyListSpec, FilterKind } from '@careplane/shared/common/list-spec';
import { enumText } from '@careplane/shared/common/record-labels';
import { RelationSelect } from '../relation-select.tsx';
import { referenceSource } from '../references.ts';
import { pathLabel, type OptionLabel } from '../resource.ts';
import { uiText, type UiText } from '@/lib/i18n/translation.ts';
import { isValidFilterValue } from './list-url.ts';

const TYPING_DELAY_MS = 350;

/** A text box that reports its value once typing pauses, and follows the value when it changes outside. */
function TypedFilter({
  label,
  value,
  onChange,
  validate,
  placeholder,
  type,
}: {
  label: string;
  value: string;
  onChange: (value: string | null) => void;
  validate?: (value: string) => string | null;
  placeholder?: string;
  type?: string;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const report = useDebouncedCallback((next: string) => {
    const trimmed = next.trim();
    if (trimmed && validate?.(trimmed)) return;
    if (trimmed !== value) onChange(trimmed || null);
  }, TYPING_DELAY_MS);
  const error = text.trim() && validate ? validate(text.trim()) : null;
  return (
    <TextInput
      label={label}
      value={text}
      type={type}
      placeholder={placeholder}
      error={error}
      onChange={(event) => {
        setText(event.currentTarget.value);
        report(event.currentTarget.value);
      }}
    />
  );
}

export interface FilterControlProps {
  kind: FilterKind;
  label: string;
  value: string | undefined;
  onChange: (value: string | null) => void;
  /** How the area names an enumeration's values; without it they read as written. */
  optionLabel?: OptionLabel;
}

export function FilterControl({ kind, label, value, onChange, optionLabel }: FilterControlProps) {
  const { t } = useTranslation('kit');
  const yesNo = [
    { value: 'true', label: t('yes') },
    { value: 'false', label: t('no') },
  ];
  switch (kind.type) {
    case 'boolean':
      return (
        <Select
          label={label}
          data={yesNo}
          value={value ?? null}
          onChange={onChange}
          placeholder={t('filter.any')}
          clearable
        />
      );
    case 'enum': {
      const data = kind.values.map((option) => ({
        value: option,
        label: optionLabel ? uiText(optionLabel(option)) : enumText(option),
      }));
      if (kind.list) {
        return (
          <MultiSelect
            label={label}
            description={t('filter.anyOf')}
            data={data}
            value={value ? value.split(',') : []}
            onChange={(values) => onChange(values.length ? values.join(',') : null)}
            placeholder={value ? undefined : t('filter.any')}
            clearable
          />
        );
      }
      return (
        <Select
          label={label}
          data={data}
          value={value ?? null}
          onChange={onChange}
          placeholder={t('filter.any')}
          clearable
        />
      );
    }
    case 'uuid': {
      if (referenceSource(kind.references)) {
        return (
          <RelationSelect
            resource={kind.references!}
            label={label}
            value={value && value !== 'null' ? value : null}
            onChange={onChange}
            placeholder={t('filter.any')}
          />
        );
      }
      return (
        <TypedFilter
          label={label}
          value={value ?? ''}
          onChange={onChange}
          placeholder={t('filter.recordId')}
          validate={(text) => (isValidFilterValue(kind, text) ? null : t('filter.mustBeUuid'))}
        />
      );
    }
    case 'number':
      return (
        <TypedFilter
          label={label}
          value={value ?? ''}
          onChange={onChange}
          type="number"
          validate={(text) => (isValidFilterValue(kind, text) ? null : t('filter.mustBeNumber'))}
        />
      );
    case 'text':
      return (
        <TypedFilter label={label} value={value ?? ''} onChange={onChange} placeholder={t('filter.exact')} />
      );
  }
}

export interface FilterPanelProps {
  spec: AnyListSpec;
  filters: Readonly<Record<string, string>>;
  onChange: (path: string, value: string | null) => void;
  onClear: () => void;
  labels?: Readonly<Record<string, UiText>>;
  /** How the area names enumeration values, by filter path. */
  optionLabels?: Readonly<Record<string, OptionLabel>>;
  /** Paths fixed by the view, not offered. */
  hidden?: readonly string[];
}

/** Every filter of the list spec as a labelled control. */
export function FilterPanel({
  spec,
  filters,
  onChange,
  onClear,
  labels,
  optionLabels,
  hidden = [],
}: FilterPanelProps) {
  const { t } = useTranslation('kit');
  const paths = Object.keys(spec.filters).filter((path) => !hidden.includes(path));
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="sm" verticalSpacing="xs">
        {paths.map((path) => (
          <FilterControl
            key={path}
            kind={spec.filters[path]!}
            label={pathLabel(path, labels)}
            value={filters[path]}
            optionLabel={optionLabels?.[path]}
            onChange={(value) => onChange(path, value)}
          />
        ))}
      </SimpleGrid>
      <Group justify="flex-end" mt="xs">
        <Button variant="subtle" size="xs" onClick={onClear}>
          {t('filter.clearFilters')}
        </Button>
      </Group>
    </>
  );
}

export interface SearchBoxProps {
  spec: AnyListSpec;
  search: Readonly<Record<string, string>>;
  defaultPath: string;
  onChange: (path: string, text: string | null) => void;
  labels?: Readonly<Record<string, UiText>>;
}

/** Search by one of the spec's search paths (case-insensitive, contains). */
export function SearchBox({ spec, search, defaultPath, onChange, labels }: SearchBoxProps) {
  const { t } = useTranslation('kit');
  const [activePath, activeText] = Object.entries(search)[0] ?? [defaultPath, ''];
  const [path, setPath] = useState(activePath);
  useEffect(() => setPath(activePath), [activePath]);
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap" style={{ flex: '1 1 320px', maxWidth: 560 }}>
      <Select
        label={t('list.searchIn')}
        data={spec.search.map((option) => ({ value: option, label: pathLabel(option, labels) }))}
        value={path}
        onChange={(next) => {
          if (!next) return;
          setPath(next);
          if (activeText) onChange(next, activeText);
        }}
        allowDeselect={false}
        w={170}
        style={{ flexShrink: 0 }}
      />
      <div style={{ flex: 1, minWidth: 0 }}>
        <TypedFilter label={t('list.search')} value={activeText} onChange={(text) => onChange(path, text)} />
      </div>
    </Group>
  );
}
