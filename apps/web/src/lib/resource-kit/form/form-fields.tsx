// The inputs of a described form, each labelled, with the error its path carries.
import {
  Button,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { DateInput, DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.layer.css';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { enumText } from '@careplane/shared/common/record-labels';
import type { Language } from '@careplane/shared/i18n/language-tags';
import { datePickerFormats, typedYear } from '@/lib/i18n/date-picker-formats.ts';
import { useLanguage } from '@/lib/i18n/language.ts';
import { uiText } from '@/lib/i18n/translation.ts';
import type { OptionLabel } from '../resource.ts';
import { RelationMultiSelect, RelationSelect } from '../relation-select.tsx';
import { AddressFields } from './address-fields.tsx';
import { emptyListItem, type FieldSpec, type FormValues, type KitForm } from './form-model.ts';

const wide: CSSProperties = { gridColumn: '1 / -1' };

const options = (values: readonly string[], label?: OptionLabel) =>
  values.map((value) => ({ value, label: label ? uiText(label(value)) : enumText(value) }));

/** A date field's value once it holds a date: `YYYY-MM-DD`, as the pickers and the contract write it. */
export const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A date as typed into a date field, as `YYYY-MM-DD`: DD.MM.YYYY as the field shows it (spec §9's date format;
 * `/` and `-` between the parts are read too), or YYYY-MM-DD. In Thai the year may be the Buddhist era's, as
 * the field shows it (15.03.2493 is 1950-03-15). Null for a text that is no calendar date.
 */
export function parseTypedDate(input: string, language: Language = 'en'): string | null {
  const text = input.trim();
  const shown = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const parts = shown ? [shown[3], shown[2], shown[1]] : iso ? [iso[1], iso[2], iso[3]] : null;
  if (!parts) return null;
  const [typed, month, day] = parts.map(Number) as [number, number, number];
  const year = typedYear(typed, language);
  const date = new Date(2000, month - 1, day);
  date.setFullYear(year);
  const real = date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
  return real ? `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}` : null;
}

type CommonProps = {
  label: string;
  description: string | undefined;
  withAsterisk: boolean | undefined;
};

/**
 * A date field that takes a typed date as well as a picked one. What is typed becomes the value as soon as it
 * reads as a date; a text that does not stays in the field and in the form as typed, so the field says so
 * when left and the form refuses to send it (formPayload) rather than drop it or send the last date.
 */
function DateField({
  common,
  placeholder,
  path,
  form,
}: {
  common: CommonProps;
  placeholder: string;
  path: string;
  form: KitForm;
}) {
  const { t } = useTranslation('kit');
  const language = useLanguage();
  const { value, error, onFocus, onBlur } = form.getInputProps(path) as {
    value: unknown;
    error?: string;
    onFocus?: () => void;
    onBlur?: () => void;
  };
  const date = typeof value === 'string' && isoDatePattern.test(value) ? value : null;
  const notADate = typeof value === 'string' && value !== '' && date === null;
  const take = (typed: string) =>
    form.setFieldValue(path, typed.trim() ? (parseTypedDate(typed, language) ?? typed) : null);
  return (
    <DateInput
      {...common}
      {...datePickerFormats(language)}
      value={date}
      error={error}
      // A day picked in the calendar, or the field cleared.
      onChange={(picked) => form.setFieldValue(path, picked)}
      // Every text typed, a date or not (the picker itself reports only dates).
      onInput={(event) => take(event.currentTarget.value)}
      dateParser={(typed) => parseTypedDate(typed, language)}
      // A date typed is rewritten as the field shows dates when left; a text that is none stays as typed.
      fixOnBlur={!notADate}
      onFocus={onFocus}
      onBlur={() => {
        onBlur?.();
        if (notADate) form.setFieldError(path, t('form.mustBeDate'));
      }}
      placeholder={placeholder}
      clearable
      popoverProps={{ withinPortal: true }}
    />
  );
}

function Field({ field, path, form }: { field: FieldSpec; path: string; form: KitForm }) {
  const { t } = useTranslation('kit');
  const language = useLanguage();
  const common = {
    label: uiText(field.label),
    description: field.description === undefined ? undefined : uiText(field.description),
    withAsterisk: field.required,
    placeholder: field.placeholder === undefined ? undefined : uiText(field.placeholder),
  };
  const input = form.getInputProps(path);
  const error = form.errors[path];
  switch (field.kind) {
    case 'text':
    case 'email':
    case 'tel':
      return <TextInput {...common} {...input} type={field.kind === 'text' ? 'text' : field.kind} />;
    case 'password':
      return <PasswordInput {...common} {...input} autoComplete="new-password" />;
    case 'textarea':
      return <Textarea {...common} {...input} autosize minRows={2} maxRows={10} style={wide} />;
    case 'number':
      return (
        <NumberInput
          {...common}
          {...input}
          min={field.min}
          max={field.max}
          step={field.step}
          decimalScale={field.decimals}
        />
      );
    case 'switch':
      return (
        <Switch
          label={common.label}
          description={common.description}
          {...form.getInputProps(path, { type: 'checkbox' })}
          mt="lg"
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          {...input}
          data={options(field.options, field.optionLabel)}
          clearable={field.clearable ?? !field.required}
          searchable={field.searchable}
          // A form in error gives its first wrong field the focus: an open list would hide what is wrong with it.
          // A click or the first letter typed opens it.
          openOnFocus={false}
        />
      );
    case 'multiselect':
      return (
        <MultiSelect {...common} {...input} data={options(field.options, field.optionLabel)} clearable />
      );
    case 'ref':
      return (
        <RelationSelect
          {...common}
          resource={field.resource}
          filters={field.filters}
          value={(input.value as string | null) ?? null}
          onChange={(value) => form.setFieldValue(path, value)}
          error={error}
          required={field.required}
        />
      );
    case 'refList':
      return (
        <RelationMultiSelect
          {...common}
          resource={field.resource}
          filters={field.filters}
          value={(input.value as string[] | undefined) ?? []}
          onChange={(value) => form.setFieldValue(path, value)}
          error={error}
          required={field.required}
        />
      );
    case 'json':
      return (
        <Textarea
          {...common}
          {...input}
          description={field.description === undefined ? t('form.jsonObject') : uiText(field.description)}
          autosize
          minRows={3}
          maxRows={14}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          style={wide}
        />
      );
    case 'lines':
      return (
        <Textarea
          {...common}
          {...input}
          description={field.description === undefined ? t('form.onePerLine') : uiText(field.description)}
          autosize
          minRows={3}
          maxRows={14}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          style={wide}
        />
      );
    case 'date':
      return (
        <DateField
          common={common}
          placeholder={uiText(field.placeholder ?? 'DD.MM.YYYY')}
          path={path}
          form={form}
        />
      );
    case 'datetime':
      return (
        <DateTimePicker
          {...common}
          {...input}
          {...datePickerFormats(language, true)}
          clearable
          popoverProps={{ withinPortal: true }}
        />
      );
    case 'address':
      return (
        <div style={wide}>
          <AddressFields
            form={form}
            path={path}
            legend={uiText(field.label)}
            requiredParts={field.requiredParts}
          />
        </div>
      );
    case 'group':
      return (
        <Fieldset legend={uiText(field.label)} style={wide} variant="filled">
          {error ? (
            <Text c="red.8" size="sm" mb="xs">
              {error}
            </Text>
          ) : null}
          <FormFields fields={field.fields} form={form} prefix={`${path}.`} />
        </Fieldset>
      );
    case 'list':
      return <ListField field={field} path={path} form={form} />;
  }
}

function ListField({
  field,
  path,
  form,
}: {
  field: Extract<FieldSpec, { kind: 'list' }>;
  path: string;
  form: KitForm;
}) {
  const { t } = useTranslation('kit');
  const items = (form.getInputProps(path).value as FormValues[] | undefined) ?? [];
  const itemLabel = uiText(field.itemLabel);
  const error = form.errors[path];
  return (
    <Fieldset legend={uiText(field.label)} style={wide} variant="filled">
      <Stack gap="sm">
        {field.description ? (
          <Text size="sm" c="dimmed">
            {uiText(field.description)}
          </Text>
        ) : null}
        {error ? (
          <Text c="red.8" size="sm" role="alert">
            {error}
          </Text>
        ) : null}
        {items.map((_item, index) => (
          <Paper
            key={index}
            withBorder
            p="sm"
            role="group"
            aria-label={t('form.item', { item: itemLabel, number: index + 1 })}
          >
            <Stack gap="xs">
              <Group justify="space-between">
                <Text fw={600} size="sm">
                  {t('form.item', { item: itemLabel, number: index + 1 })}
                </Text>
                <Button
                  variant="light"
                  color="red"
                  size="xs"
                  onClick={() => form.removeListItem(path, index)}
                  aria-label={t('form.removeItem', { item: itemLabel.toLowerCase(), number: index + 1 })}
                >
                  {t('form.remove')}
                </Button>
              </Group>
              <FormFields fields={field.fields} form={form} prefix={`${path}.${index}.`} />
            </Stack>
          </Paper>
        ))}
        <Group>
          <Button variant="light" size="xs" onClick={() => form.insertListItem(path, emptyListItem(field))}>
            {t('form.addItem', { item: itemLabel.toLowerCase() })}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}

/** The fields in a two-column grid (one on a phone); long inputs span the row. */
export function FormFields({
  fields,
  form,
  prefix = '',
}: {
  fields: readonly FieldSpec[];
  form: KitForm;
  prefix?: string;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
      {fields.map((field) => (
        <Field key={field.name} field={field} path={`${prefix}${field.name}`} form={form} />
      ))}
    </SimpleGrid>
  );
}
