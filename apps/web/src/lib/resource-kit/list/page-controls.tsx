// Page numbers under a list that is not a data table (alerts, documents, the command center's sections), named
// to screen readers in the console's language as the data tables' are. Nothing is drawn for a single page; a
// page beyond the last (the list shrank while it was open) moves back to the last.
import { Group, Pagination } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

const controlLabels = {
  first: 'list.firstPage',
  previous: 'list.previousPage',
  next: 'list.nextPage',
  last: 'list.lastPage',
} as const;

export function PageControls({
  total,
  pageSize,
  page,
  onChange,
}: {
  /** Records in the whole list (null or undefined while unknown: nothing is drawn). */
  total: number | null | undefined;
  pageSize: number;
  page: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation('kit');
  const pages = Math.ceil((total ?? 0) / pageSize);
  useEffect(() => {
    if (pages >= 1 && page > pages) onChange(pages);
  }, [page, pages, onChange]);
  if (pages <= 1) return null;
  return (
    <Group justify="center" mt="sm">
      <Pagination
        size="sm"
        total={pages}
        value={Math.min(page, pages)}
        onChange={onChange}
        getControlProps={(control) => ({ 'aria-label': t(controlLabels[control]) })}
        getItemProps={(item) => ({ 'aria-label': t('list.page', { page: item }) })}
      />
    </Group>
  );
}
