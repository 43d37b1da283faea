// The address of spec §3: its parts and latitude/longitude. With a maps key configured, a search box above
// the parts fills them from the maps service; without one, the parts are plain fields.
import { Autocomplete, Fieldset, Loader, NumberInput, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getRuntimeConfig } from '@/lib/config.ts';
import { addressParts, type AddressPart, type KitForm } from './form-model.ts';
import { addressFromComponents, loadPlacesSearch, type PlaceSuggestion, type PlacesSearch } from './maps.ts';

function PlaceSearch({ form, path }: { form: KitForm; path: string }) {
  const { t } = useTranslation('kit');
  const { mapsKey, mapsRegion, mapsLanguage } = getRuntimeConfig();
  const [search, setSearch] = useState<PlacesSearch | null>(null);
  const [failed, setFailed] = useState(false);
  const [input, setInput] = useState('');
  const [typed] = useDebouncedValue(input.trim(), 300);
  const [suggestions, setSuggestions] = useState<PlaceSuggestion[]>([]);

  useEffect(() => {
    if (!mapsKey) return;
    let live = true;
    loadPlacesSearch({ key: mapsKey, region: mapsRegion, language: mapsLanguage }).then(
      (loaded) => live && setSearch(loaded),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [mapsKey, mapsRegion, mapsLanguage]);

  useEffect(() => {
    if (!search || typed.length < 3) return setSuggestions([]);
    let live = true;
    search.suggest(typed).then(
      (found) => live && setSuggestions(found),
      () => live && setSuggestions([]),
    );
    return () => {
      live = false;
    };
  }, [search, typed]);

  const choose = async (text: string) => {
    const suggestion = suggestions.find((entry) => entry.text === text);
    if (!suggestion) return;
    const place = await suggestion.resolve();
    const parts = addressFromComponents(place.components);
    for (const part of addressParts) if (part !== 'title') form.setFieldValue(`${path}.${part}`, parts[part]);
    if (place.lat !== null && place.lng !== null) {
      form.setFieldValue(`${path}.geo.lat`, place.lat);
      form.setFieldValue(`${path}.geo.lng`, place.lng);
    }
  };

  if (failed) {
    return (
      <Text size="sm" c="dimmed">
        {t('address.searchUnavailable')}
      </Text>
    );
  }
  return (
    <Autocomplete
      label={t('address.find')}
      description={t('address.findHint')}
      value={input}
      onChange={setInput}
      data={suggestions.map((entry) => entry.text)}
      onOptionSubmit={(text) => void choose(text)}
      rightSection={
        !search ? <Loader size="xs" role="status" aria-label={t('address.loadingSearch')} /> : undefined
      }
      filter={({ options }) => options}
      mb="sm"
    />
  );
}

export function AddressFields({
  form,
  path,
  legend,
  requiredParts = [],
}: {
  form: KitForm;
  path: string;
  legend: string;
  requiredParts?: readonly AddressPart[];
}) {
  const { t } = useTranslation('kit');
  const hasMaps = Boolean(getRuntimeConfig().mapsKey);
  const groupError = form.errors[path] ?? form.errors[`${path}.geo`];
  return (
    <Fieldset legend={legend} variant="filled">
      {hasMaps ? <PlaceSearch form={form} path={path} /> : null}
      {groupError ? (
        <Text c="red.8" size="sm" mb="xs">
          {groupError}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
        {addressParts.map((part) => (
          <TextInput
            key={part}
            label={t(`address.${part}`)}
            withAsterisk={requiredParts.includes(part)}
            {...form.getInputProps(`${path}.${part}`)}
          />
        ))}
        <NumberInput
          label={t('address.latitude')}
          min={-90}
          max={90}
          clampBehavior="none"
          decimalScale={7}
          {...form.getInputProps(`${path}.geo.lat`)}
        />
        <NumberInput
          label={t('address.longitude')}
          min={-180}
          max={180}
          clampBehavior="none"
          decimalScale={7}
          {...form.getInputProps(`${path}.geo.lng`)}
        />
      </SimpleGrid>
    </Fieldset>
  );
}
