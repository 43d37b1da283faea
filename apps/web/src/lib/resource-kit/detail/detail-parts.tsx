// The parts a detail page is made of: sections, labelled fields, linked relations and structured values.
import { Anchor, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { keyWords } from '@careplane/shared/common/key-words';
import type { ResourceName } from '@careplane/shared/common/list-spec';
import type { RecordLike } from '@careplane/shared/common/record-labels';
import { fieldName } from '@careplane/shared/i18n/validation-texts';
import { useLanguage } from '@/lib/i18n/language.ts';
import { EMPTY_TEXT } from '../cells.tsx';
import { referenceSource } from '../references.ts';

export function DetailSection({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={2} size="h4">
            {title}
          </Title>
          {actions ? <Group gap="xs">{actions}</Group> : null}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

export function FieldGrid({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="md" verticalSpacing="md">
      {children}
    </SimpleGrid>
  );
}

const isEmpty = (value: ReactNode) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

export function DetailField({
  label,
  children,
  wide,
}: {
  label: string;
  children?: ReactNode;
  wide?: boolean;
}) {
  return (
    <Stack gap={2} style={wide ? { gridColumn: '1 / -1', minWidth: 0 } : { minWidth: 0 }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {isEmpty(children) ? (
          <Text span c="dimmed">
            {EMPTY_TEXT}
          </Text>
        ) : (
          children
        )}
      </Text>
    </Stack>
  );
}

/** A link to a related record, by its name. */
export function RecordLink({
  resource,
  record,
}: {
  resource: ResourceName;
  record: RecordLike | null | undefined;
}) {
  if (!record)
    return (
      <Text span c="dimmed">
        {EMPTY_TEXT}
      </Text>
    );
  const source = referenceSource(resource);
  const label = source?.label(record) ?? record.id;
  const to = source?.detailPath?.(record.id);
  return to ? (
    <Anchor component={Link} to={to}>
      {label}
    </Anchor>
  ) : (
    <>{label}</>
  );
}

/** Related records as links, or "None" in the console's language. */
export function RecordLinks({
  resource,
  records,
  empty,
}: {
  resource: ResourceName;
  records: readonly RecordLike[] | null | undefined;
  empty?: string;
}) {
  const { t } = useTranslation('kit');
  if (!records?.length)
    return (
      <Text span c="dimmed">
        {empty ?? t('none')}
      </Text>
    );
  return (
    <Group gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {records.map((record) => (
        <li key={record.id}>
          <RecordLink resource={resource} record={record} />
        </li>
      ))}
    </Group>
  );
}

type Scalar = string | number | boolean | null;
const isScalar = (value: unknown): value is Scalar =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);
const oneText = (value: Scalar) => (value === null || value === '' ? EMPTY_TEXT : String(value));
const scalarText = (value: Scalar | readonly Scalar[]): string =>
  isScalar(value) ? oneText(value) : value.map(oneText).join(', ');

/**
 * Structured JSON a device or a system sent (connection details, identities): a flat object reads as labelled
 * lines ("Firmware version: 1.2.3"), its keys as words (in Thai, the catalog's word for a key it knows: the
 * field labels the validation messages use); anything deeper as readable, indented text.
 */
export function JsonValue({ value }: { value: unknown }) {
  const language = useLanguage();
  const label = (key: string) => (language === 'en' ? keyWords(key) : fieldName([key], language));
  if (
    value === null ||
    value === undefined ||
    (typeof value === 'object' && Object.keys(value).length === 0)
  ) {
    // Nothing sent reads as every other empty field does, not as a label over a blank.
    return (
      <Text span c="dimmed">
        {EMPTY_TEXT}
      </Text>
    );
  }
  const entries = typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
  const flat =
    entries.length > 0 &&
    entries.every(([, item]) => isScalar(item) || (Array.isArray(item) && item.every(isScalar)));
  if (flat) {
    return (
      <Stack gap={2} component="dl" m={0}>
        {entries.map(([key, item]) => (
          <Group key={key} gap={6} wrap="wrap" align="baseline">
            <Text component="dt" size="sm" c="dimmed">
              {label(key)}:
            </Text>
            <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
              {scalarText(item as Scalar | Scalar[])}
            </Text>
          </Group>
        ))}
      </Stack>
    );
  }
  return (
    <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {JSON.stringify(value, null, 2)}
    </Code>
  );
}
