// Page numbers under a list that is not a data table (alerts, documents, the command center's sections), named
// to screen readers in the console's language as the data tables' are. Nothing is drawn for a single page; a
// page beyond the last (the list shrank while it was open) moves back to the last.
import { Group, Pagination } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PHONE_SCREEN } from '@/lib/screen-widths.ts';

/** A finger, not a pointer: page buttons are 38 px on a phone rather than 26 (here and under data tables). */
export function usePagerSize(): 'lg' | 'sm' {
  return useMediaQuery(PHONE_SCREEN) === true ? 'lg' : 'sm';
}

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
  const size = usePagerSize();
  const pages = Math.ceil((total ?? 0) / pageSize);
  useEffect(() => {
    if (pages >= 1 && page > pages) onChange(pages);
  }, [page, pages, onChange]);
  if (pages <= 1) return null;
  return (
    <Group justify="center" mt="sm">
      <Pagination
        size={size}
        total={pages}
        value={Math.min(page, pages)}
        onChange={onChange}
        getControlProps={(control) => ({ 'aria-label': t(controlLabels[control]) })}
        getItemProps={(item) => ({ 'aria-label': t('list.page', { page: item }) })}
      />
    </Group>
  );
}
