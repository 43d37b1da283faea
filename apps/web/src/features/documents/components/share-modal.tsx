// Share with the people who should sign: pick them by name (the names-only party search), then save; they
// find the document under "Shared with me" and "Waiting for my signature".
import { Alert, Button, Group, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_SIGNING_PARTIES, type Document } from '@careplane/shared/documents/documents.contract';
import { useShareDocument } from '../api/documents.mutations.ts';
import { documentQueries } from '../api/documents.queries.ts';
import { PHONE_SCREEN } from '@/lib/screen-widths.ts';

interface Props {
  document: Document;
  opened: boolean;
  onClose: () => void;
}

export function ShareModal({ document, opened, onClose }: Props) {
  const { t } = useTranslation('documents');
  const [selected, setSelected] = useState<string[]>(() => document.parties.map((party) => party.userId));
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const suggestions = useQuery({ ...documentQueries.parties(debounced), enabled: opened });
  const share = useShareDocument(document.id);
  // The names of those already chosen stay known while the suggestions change.
  const [known, setKnown] = useState(
    () => new Map(document.parties.map((party) => [party.userId, party.name] as const)),
  );
  const data = useMemo(() => {
    const names = new Map(known);
    for (const item of suggestions.data?.items ?? []) names.set(item.id, item.name);
    return [...names].map(([value, label]) => ({ value, label }));
  }, [known, suggestions.data]);
  // On a phone the list of people covers the dialog's buttons: it closes once a person is picked (typing opens
  // it again), where a wider screen keeps it open for the next one.
  const onPhone = useMediaQuery(PHONE_SCREEN) === true;
  const [listOpened, setListOpened] = useState(false);
  const signed = new Set(
    document.parties.filter((party) => party.state === 'signed').map((party) => party.userId),
  );

  return (
    <Modal opened={opened} onClose={onClose} title={t('share.title')} size="lg">
      <Stack gap="md">
        <Text size="sm">{t('share.intro')}</Text>
        <MultiSelect
          id={`share-${document.id}`}
          label={t('share.people')}
          placeholder={t('share.placeholder')}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={data}
          value={selected}
          onChange={(value) => {
            const names = new Map(known);
            for (const id of value) {
              const label = data.find((item) => item.value === id)?.label;
              if (label) names.set(id, label);
            }
            setKnown(names);
            setSelected([...new Set([...value, ...signed])]);
          }}
          maxValues={MAX_SIGNING_PARTIES}
          nothingFoundMessage={suggestions.isFetching ? t('share.searching') : t('share.nobody')}
          filter={({ options }) => options}
          dropdownOpened={listOpened}
          onDropdownOpen={() => setListOpened(true)}
          onDropdownClose={() => setListOpened(false)}
          onOptionSubmit={() => {
            if (onPhone) setListOpened(false);
          }}
          comboboxProps={{ withinPortal: true }}
        />
        {signed.size ? (
          <Text size="xs" c="dimmed">
            {t('share.signedStay')}
          </Text>
        ) : null}
        {share.isError ? (
          <Alert color="red" title={t('share.failed')} role="alert">
            {share.error.message}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('share.cancel')}
          </Button>
          <Button loading={share.isPending} onClick={() => share.mutate(selected, { onSuccess: onClose })}>
            {t('share.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
