// A form described as fields: how a record becomes form values, how form values become the request body
// the contract's zod schema checks, and how issues (the schema's here, the server's in a 400) land on the
// fields they name. The same messages show whether the browser or the server found the problem.
import type { ResourceName } from '@careplane/shared/common/list-spec';
import type { UseFormReturnType } from '@mantine/form';
import i18next from 'i18next';
import { uiText, type UiText } from '@/lib/i18n/translation.ts';

interface Base {
  /** The key of the value in the body, relative to the enclosing group or list item. */
  name: string;
  /** Texts may be catalog reads (`() => t('users:fields.email')`): they are read when the form renders. */
  label: UiText;
  description?: UiText;
  /** Marked as required (the schema decides what is refused). */
  required?: boolean;
  /** Shown only when creating, or only when editing. */
  only?: 'create' | 'edit';
  /** Reads the starting value from the record, where it is not simply `record[name]`. */
  read?: (record: Record<string, unknown>) => unknown;
  placeholder?: UiText;
}

/** How an area names one value of an enumeration in its selects and filters. */
export type OptionLabel = (value: string) => UiText;

export type FieldSpec =
  | (Base & {
      kind: 'text' | 'textarea' | 'email' | 'tel' | 'password';
      /** Left empty, sent as empty text, for a value the contract wants sent and the server fills when blank. */
      sendEmpty?: boolean;
    })
  | (Base & { kind: 'number'; min?: number; max?: number; step?: number; decimals?: number })
  | (Base & { kind: 'switch'; defaultValue?: boolean })
  | (Base & {
      kind: 'select';
      options: readonly string[];
      /** How the area names each option; without it the values read as written. */
      optionLabel?: OptionLabel;
      defaultValue?: string;
      clearable?: boolean;
      /** Typing filters the options (a long list: a doctor's patients). */
      searchable?: boolean;
    })
  | (Base & {
      kind: 'multiselect';
      options: readonly string[];
      optionLabel?: OptionLabel;
      defaultValue?: readonly string[];
    })
  | (Base & { kind: 'ref'; resource: ResourceName; filters?: readonly string[] })
  | (Base & { kind: 'refList'; resource: ResourceName; filters?: readonly string[] })
  | (Base & { kind: 'json' })
  | (Base & { kind: 'lines' })
  | (Base & { kind: 'date' })
  | (Base & { kind: 'datetime' })
  | (Base & {
      kind: 'address';
      /** The user's address is a list of one address. */
      asList?: boolean;
      /** Parts the schema requires (the command center address). */
      requiredParts?: readonly AddressPart[];
    })
  | (Base & { kind: 'group'; fields: readonly FieldSpec[] })
  | (Base & { kind: 'list'; itemLabel: UiText; fields: readonly FieldSpec[] });

export type FormValues = Record<string, unknown>;
/** The form every field of the kit works on. */
export type KitForm = UseFormReturnType<FormValues>;

export const addressParts = [
  'title',
  'street',
  'houseNumber',
  'district',
  'city',
  'county',
  'postalCode',
  'country',
] as const;
export type AddressPart = (typeof addressParts)[number];

export interface AddressValues {
  title: string;
  street: string;
  houseNumber: string;
  district: string;
  city: string;
  county: string;
  postalCode: string;
  country: string;
  geo: { lat: number | string; lng: number | string };
}

type Mode = 'create' | 'edit';

/** The fields shown in a mode. */
export const fieldsFor = (fields: readonly FieldSpec[], mode: Mode) =>
  fields.filter((field) => !field.only || field.only === mode);

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

const idOf = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  const record = asRecord(value);
  return typeof record?.id === 'string' ? record.id : null;
};

const text = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

export function addressValues(value: unknown): AddressValues {
  const address = asRecord(Array.isArray(value) ? value[0] : value) ?? {};
  const geo = asRecord(address.geo) ?? {};
  const values = Object.fromEntries(addressParts.map((part) => [part, text(address[part])])) as Omit<
    AddressValues,
    'geo'
  >;
  return {
    ...values,
    geo: {
      lat: typeof geo.lat === 'number' ? geo.lat : '',
      lng: typeof geo.lng === 'number' ? geo.lng : '',
    },
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO instant as the date-time picker holds it: `YYYY-MM-DD HH:mm:ss` in the browser's zone. */
export function localDateTime(iso: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

function startValue(field: FieldSpec, record: Record<string, unknown> | undefined): unknown {
  const raw = record ? (field.read ? field.read(record) : record[field.name]) : undefined;
  switch (field.kind) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'tel':
    case 'password':
      return text(raw);
    case 'number':
      return typeof raw === 'number' ? raw : '';
    case 'switch':
      return typeof raw === 'boolean' ? raw : (field.defaultValue ?? false);
    case 'select':
      return typeof raw === 'string' ? raw : (field.defaultValue ?? null);
    case 'multiselect':
      return Array.isArray(raw)
        ? raw.filter((item) => typeof item === 'string')
        : [...(field.defaultValue ?? [])];
    case 'ref':
      return idOf(raw) ?? (record ? idOf(record[`${field.name}Id`]) : null);
    case 'refList':
      return Array.isArray(raw) ? raw.map(idOf).filter((id): id is string => id !== null) : [];
    case 'json':
      return asRecord(raw) ? JSON.stringify(raw, null, 2) : '';
    case 'lines':
      return Array.isArray(raw) ? raw.map(text).join('\n') : '';
    case 'date':
      return typeof raw === 'string' && raw ? raw.slice(0, 10) : null;
    case 'datetime':
      return typeof raw === 'string' && raw ? localDateTime(raw) : null;
    case 'address':
      return addressValues(raw);
    case 'group':
      return formValues(field.fields, asRecord(raw) ?? (record ? {} : undefined));
    case 'list':
      return Array.isArray(raw) ? raw.map((item) => formValues(field.fields, asRecord(item) ?? {})) : [];
  }
}

/** The form's values for a record (edit) or for a new one (create). */
export function formValues(fields: readonly FieldSpec[], record?: Record<string, unknown>): FormValues {
  return Object.fromEntries(fields.map((field) => [field.name, startValue(field, record)]));
}

/** A new, empty item of a list field. */
export const emptyListItem = (field: Extract<FieldSpec, { kind: 'list' }>) => formValues(field.fields);

const toNumber = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : Number.NaN;
  }
  return undefined;
};

function addressPayload(value: AddressValues, required: boolean) {
  const address: Record<string, unknown> = {};
  for (const part of addressParts) if (value[part].trim()) address[part] = value[part];
  const lat = toNumber(value.geo.lat);
  const lng = toNumber(value.geo.lng);
  if (lat !== undefined || lng !== undefined) address.geo = { lat, lng };
  return Object.keys(address).length || required ? address : undefined;
}

export interface PayloadResult {
  payload: Record<string, unknown>;
  /** Problems found before any schema: JSON that does not parse, a typed date that is none. */
  errors: Record<string, string>;
}

function payloadValue(
  field: FieldSpec,
  value: unknown,
  path: string,
  errors: Record<string, string>,
): unknown {
  switch (field.kind) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'tel':
    case 'password':
      // An empty required field is sent empty, so the schema answers with its own "Required".
      if (typeof value !== 'string') return undefined;
      return value !== '' || field.required || field.sendEmpty ? value : undefined;
    case 'number':
      return toNumber(value);
    case 'switch':
      return Boolean(value);
    case 'select':
    case 'ref':
      return typeof value === 'string' && value ? value : undefined;
    case 'date':
      if (typeof value !== 'string' || !value) return undefined;
      // A text typed into the field that is no date (form-fields.tsx) is refused, not sent and not dropped.
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) {
        errors[path] = i18next.t('kit:form.mustBeDate');
        return undefined;
      }
      return value;
    case 'datetime': {
      if (typeof value !== 'string' || !value) return undefined;
      const date = new Date(value.includes('T') ? value : value.replace(' ', 'T'));
      return Number.isNaN(date.getTime()) ? value : date.toISOString();
    }
    case 'multiselect':
      return Array.isArray(value) && value.length ? [...(value as string[])] : undefined;
    case 'refList':
      return Array.isArray(value) ? [...(value as string[])] : [];
    case 'lines':
      return typeof value === 'string'
        ? value
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean)
        : [];
    case 'json': {
      if (typeof value !== 'string' || !value.trim()) return undefined;
      try {
        const parsed: unknown = JSON.parse(value);
        if (!asRecord(parsed)) errors[path] = i18next.t('kit:form.mustBeJsonObject');
        return parsed;
      } catch {
        errors[path] = i18next.t('kit:form.mustBeJson');
        return undefined;
      }
    }
    case 'address': {
      const address = addressPayload(value as AddressValues, Boolean(field.required));
      return field.asList ? (address ? [address] : []) : address;
    }
    case 'group': {
      const group = collect(field.fields, asRecord(value) ?? {}, `${path}.`, errors);
      return Object.keys(group).length || field.required ? group : undefined;
    }
    case 'list':
      return (Array.isArray(value) ? value : []).map((item, index) =>
        collect(field.fields, asRecord(item) ?? {}, `${path}.${index}.`, errors),
      );
  }
}

function collect(
  fields: readonly FieldSpec[],
  values: FormValues,
  prefix: string,
  errors: Record<string, string>,
): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const field of fields) {
    const value = payloadValue(field, values[field.name], `${prefix}${field.name}`, errors);
    if (value !== undefined) payload[field.name] = value;
  }
  return payload;
}

const textKinds = new Set<FieldSpec['kind']>(['text', 'textarea', 'email', 'tel']);

/**
 * An edit's body with every text field the user emptied sent empty. An edit sends only changed, non-null
 * fields (spec §5), and an empty field is left out of a body: so a cleared name was not sent at all, and the
 * form said "saved" while the name stayed. Sent empty, it is removed, or refused on its field where the
 * contract does not take an empty value (an e-mail address).
 */
export function withClearedText(
  fields: readonly FieldSpec[],
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const body = { ...after };
  for (const field of fields) {
    const was = before[field.name];
    if (textKinds.has(field.kind) && typeof was === 'string' && was !== '' && !(field.name in after))
      body[field.name] = '';
  }
  return body;
}

/** The request body the form's values make: empty fields are left out. */
export function formPayload(fields: readonly FieldSpec[], values: FormValues): PayloadResult {
  const errors: Record<string, string> = {};
  const payload = collect(fields, values, '', errors);
  return { payload, errors };
}

// ---------------------------------------------------------------------------------------------------------
// Issues → field errors

export interface Issue {
  /** The server's `body.address.city`, or a schema issue's `['address', 'city']`. */
  path: string | readonly PropertyKey[];
  message: string;
}

/** Paths of the form that show an error: inputs, groups and lists (with `#` for an item index). */
function placeablePaths(fields: readonly FieldSpec[], prefix = ''): string[] {
  return fields.flatMap((field) => {
    const path = `${prefix}${field.name}`;
    if (field.kind === 'address') {
      return [path, ...addressParts.map((part) => `${path}.${part}`), `${path}.geo.lat`, `${path}.geo.lng`];
    }
    if (field.kind === 'group') return [path, ...placeablePaths(field.fields, `${path}.`)];
    if (field.kind === 'list') return [path, ...placeablePaths(field.fields, `${path}.#.`)];
    return [path];
  });
}

/** The form path an issue's path names: without the request part, with list-of-one addresses unwrapped. */
function normalize(path: Issue['path'], fields: readonly FieldSpec[]): string {
  let text = typeof path === 'string' ? path : path.map(String).join('.');
  text = text.replace(/^body(\.|$)/, '');
  for (const field of fields) {
    if (field.kind === 'address' && field.asList) {
      text = text.replace(new RegExp(`^${field.name}\\.0(\\.|$)`), `${field.name}$1`).replace(/\.$/, '');
    }
  }
  return text;
}

export interface PlacedIssues {
  /** By form path: what the field shows. */
  fieldErrors: Record<string, string>;
  /** Issues that name no field of the form: shown above it. */
  other: string[];
}

/** Places each issue on the field it names (or the nearest group or list holding it). */
/**
 * The label a field has in this form, to name it in its own error ("Patient is required." where the contract's
 * field is the recipient); none for a value inside a group or list, which its item's sentence names.
 */
export function ownLabel(fields: readonly FieldSpec[], path: readonly PropertyKey[]): string | undefined {
  if (path.length !== 1) return undefined;
  const field = fields.find((spec) => spec.name === path[0]);
  return field ? uiText(field.label) : undefined;
}

export function placeIssues(issues: readonly Issue[], fields: readonly FieldSpec[]): PlacedIssues {
  const placeable = new Set(placeablePaths(fields));
  const fieldErrors: Record<string, string> = {};
  const other: string[] = [];
  for (const issue of issues) {
    const path = normalize(issue.path, fields);
    const parts = path ? path.split('.') : [];
    let placed = false;
    for (let length = parts.length; length > 0 && !placed; length -= 1) {
      const candidate = parts.slice(0, length);
      const pattern = candidate.map((part) => (/^\d+$/.test(part) ? '#' : part)).join('.');
      if (placeable.has(pattern)) {
        const key = candidate.join('.');
        fieldErrors[key] ??= issue.message;
        placed = true;
      }
    }
    if (!placed) other.push(path ? `${path}: ${issue.message}` : issue.message);
  }
  return { fieldErrors, other };
}
