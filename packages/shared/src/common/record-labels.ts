// How a record is named for people: in list cells, CSV files, relation pickers and confirmations. Embedded
// relations arrive as loose objects (`{ id, ...fields }`), so every reader here checks what it reads.
// Words that depend on the reader's language (enumeration values, Yes and No, dates) go through the
// RecordLabels of label-context.ts, which columns are given (decision 047).
import { formatDate } from './formats.ts';
import type { RecordLabels } from './label-context.ts';

/** An embedded related record as answers carry it. */
export interface RecordLike {
  id: string;
  [field: string]: unknown;
}

type Maybe<T> = T | null | undefined;

/** The text of a field that should be text; anything else reads as empty. */
export const textOf = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** A person's name: first and last name, else the username, else the email. */
export function personName(user: Maybe<Record<string, unknown>>): string {
  if (!user) return '';
  const name = [textOf(user.firstName), textOf(user.lastName)].filter(Boolean).join(' ');
  return name || textOf(user.username) || textOf(user.email);
}

/**
 * A person's name in the local script of their identity document (`additionalInfo.localizedFirstName` and
 * `localizedLastName`, a Thai name for most): empty when none was recorded.
 */
export function localizedPersonName(user: Maybe<Record<string, unknown>>): string {
  const info = user?.additionalInfo;
  if (!info || typeof info !== 'object') return '';
  const { localizedFirstName, localizedLastName } = info as Record<string, unknown>;
  return [textOf(localizedFirstName), textOf(localizedLastName)].filter(Boolean).join(' ');
}

/** The title of a titled record (devices, workstations, providers, centers). */
export const titleOf = (record: Maybe<Record<string, unknown>>): string =>
  record ? textOf(record.title) : '';

/** An IoT device: its hardware identifier and model. */
export function iotDeviceName(device: Maybe<Record<string, unknown>>): string {
  if (!device) return '';
  return [textOf(device.hardwareIdentifier), textOf(device.model)].filter(Boolean).join(' · ');
}

/** A workstation has an optional title: without one it is named by its device. */
export function workstationName(workstation: Maybe<Record<string, unknown>>): string {
  if (!workstation) return '';
  const title = titleOf(workstation);
  if (title) return title;
  const device = workstation.device as Maybe<Record<string, unknown>>;
  return device ? `Workstation of ${titleOf(device)}` : `Workstation ${shortId(textOf(workstation.id))}`;
}

/** The first block of a uuid: enough to tell records apart on a screen, never a whole raw id. */
export const shortId = (id: string): string => id.split('-')[0] ?? id;

/** Names of a list of related records, comma separated, in the order given. */
export function namesOf(
  records: Maybe<readonly Record<string, unknown>[]>,
  name: (record: Record<string, unknown>) => string,
): string {
  return (records ?? []).map(name).filter(Boolean).join(', ');
}

/** Yes or No, for a spreadsheet as for a screen. */
export const yesNo = (value: Maybe<boolean>): string =>
  value === true ? 'Yes' : value === false ? 'No' : '';

/** An enumeration value as words: `picked_up` → `picked up`, `NEW` stays `NEW`. */
export const enumText = (value: unknown): string => textOf(value).replaceAll('_', ' ');

/** A list of enumeration values as words. */
export const enumListText = (values: Maybe<readonly unknown[]>): string =>
  (values ?? []).map(enumText).filter(Boolean).join(', ');

/** A street address on one line: street and number, district, city, postal code, country. */
export function addressLine(address: Maybe<Record<string, unknown>>): string {
  if (!address) return '';
  const street = [textOf(address.street), textOf(address.houseNumber)].filter(Boolean).join(' ');
  return [
    street,
    textOf(address.district),
    textOf(address.city),
    textOf(address.postalCode),
    textOf(address.country),
  ]
    .filter(Boolean)
    .join(', ');
}

/** The creation date of a record as DD.MM.YYYY. */
export function createdOn(record: { createdAt?: unknown }, labels?: RecordLabels): string {
  const createdAt = typeof record.createdAt === 'string' ? record.createdAt : undefined;
  return labels ? labels.date(createdAt) : formatDate(createdAt);
}

/** A prescription has no title: it is named by its first item and its date. */
export function prescriptionName(prescription: Maybe<Record<string, unknown>>): string {
  if (!prescription) return '';
  const content = Array.isArray(prescription.content) ? (prescription.content as unknown[]) : [];
  const first = content[0] as Record<string, unknown> | undefined;
  const more = content.length > 1 ? ` +${content.length - 1}` : '';
  const name = first ? `${textOf(first.name)}${more}` : 'Prescription';
  const date = createdOn(prescription);
  return date ? `${name} (${date})` : name;
}
