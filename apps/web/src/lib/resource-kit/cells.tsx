// Text as lists and details show it: cut at one of the spec's lengths with the whole text on hover (and
// for screen readers), a dash where there is nothing, and a link where the text names a record.
import { Anchor, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CellValue } from '@careplane/shared/common/list-columns';
import { truncate, type TruncationLength } from '@careplane/shared/common/formats';

export const EMPTY_TEXT = '—';

export interface CellTextProps {
  value: CellValue | undefined;
  truncateAt?: TruncationLength;
  to?: string | null;
}

export function CellText({ value, truncateAt, to }: CellTextProps) {
  const { t } = useTranslation('kit');
  // A boolean reads as Yes or No in the reader's language (the columns write theirs through their labels).
  const answer = value === true ? t('yes') : value === false ? t('no') : null;
  const full = answer ?? (value === null || value === undefined ? '' : String(value));
  if (!full) {
    return (
      <Text span c="dimmed" size="sm">
        {EMPTY_TEXT}
      </Text>
    );
  }
  const shown = truncateAt ? truncate(full, truncateAt) : full;
  const cut = shown !== full;
  const text = cut ? (
    <Tooltip label={full} multiline maw={420} openDelay={150}>
      <span>
        <span aria-hidden="true">{shown}</span>
        <VisuallyHidden>{full}</VisuallyHidden>
      </span>
    </Tooltip>
  ) : (
    full
  );
  if (!to) return <>{text}</>;
  return (
    <Anchor component={Link} to={to} size="sm" fw={500}>
      {text}
    </Anchor>
  );
}
