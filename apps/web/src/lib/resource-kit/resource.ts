// What a resource tells the kit about itself: its list spec, columns, names, addresses and the few parts
// that are its own. A resource screen is such a description, not a copied folder.
import { keyWords } from '@careplane/shared/common/key-words';
import type { ListColumn } from '@careplane/shared/common/list-columns';
import type { AnyListSpec } from '@careplane/shared/common/list-spec';
import { uiText, type UiText } from '@/lib/i18n/translation.ts';
import { ownLabel, type FieldSpec, type OptionLabel } from './form/form-model.ts';
import type { ResourceQueries } from './queries.ts';

export interface ResourcePaths {
  list: () => string;
  detail: (id: string) => string;
  create?: () => string;
  edit?: (id: string) => string;
}

export interface ResourceDescription<Item extends { id: string }> {
  queries: ResourceQueries<Item>;
  spec: AnyListSpec;
  // Texts are UiText: a string, or a function reading the feature's catalog when shown (decision 047).
  /** One record, in lower case ("user", "service provider"). */
  noun: UiText;
  /** The list's title ("Users"). */
  title: UiText;
  columns: readonly ListColumn<Item>[];
  /** Column headers in the reader's language, by column key; a column without one shows its own title. */
  columnTitles?: Readonly<Record<string, UiText>>;
  /** How one record is named: page titles, confirmations, links. */
  recordLabel: (item: Item) => string;
  paths: ResourcePaths;
  /** Cells that link to a page: by column key. The first column links to the record unless given. */
  cellLinks?: Readonly<Record<string, (item: Item) => string | null | undefined>>;
  /**
   * A second, quieter line under a cell, by column key: what the list can be searched by but the cell does not
   * say (a person's name in their own script under the Latin one). Not written into a CSV export.
   */
  cellNotes?: Readonly<Record<string, (item: Item) => string | null | undefined>>;
  /** Labels of filter and search paths where the path alone reads poorly. */
  labels?: Readonly<Record<string, UiText>>;
  /**
   * Enumeration values as the filters show them, by filter path (`role` → the area's catalog's name for each
   * role); a path without one shows the values as they are written.
   */
  optionLabels?: Readonly<Record<string, OptionLabel>>;
  /** The search path the search box starts with. */
  defaultSearch: string;
  /** Filters every list request carries, and which the filter panel therefore does not offer. */
  fixedFilters?: Readonly<Record<string, string>>;
  /** The server's name for this list's columns in a CSV export, when they are not the resource's own. */
  exportView?: string;
  /** Columns a phone shows (the rest are on the record's page); default: the first two. */
  phoneColumns?: readonly string[];
  /** Relations a detail page reads. */
  detailRelations: readonly string[];
  /** How the record's page tells its history where the audit's own names do not read well. */
  history?: HistoryWords;
  /** The record's form, read when shown: its history names a changed field as the form labels it. */
  formFields?: () => readonly FieldSpec[];
}

/**
 * A history entry in the resource's words: actions of its own (a prescription's `issue`, `pickup-denied`) by
 * what happened, the time an action was taken where it differs from its recording, and the audit's bookkeeping
 * (an idempotency key, a signature request's id) left out of the changed fields. Without them an entry shows
 * the kit's create/update/delete, its time of recording, and every changed field by its label.
 */
export interface HistoryWords {
  /** The action in words; undefined leaves it to the kit (create, update, delete) or shows it as recorded. */
  event?: (action: string) => string | undefined;
  when?: (entry: { at: string; changes: Record<string, unknown> | null }) => string;
  unlisted?: readonly string[];
}

export type { OptionLabel } from './form/form-model.ts';

export const defineResource = <Item extends { id: string }>(description: ResourceDescription<Item>) =>
  description;

/** A filter or search path as a label: `patientProfile.status` → "Patient profile status". */
export function pathLabel(path: string, labels?: Readonly<Record<string, UiText>>): string {
  const given = labels?.[path];
  if (given) return uiText(given);
  if (path === 'id') return 'ID';
  return keyWords(path.replace(/\.id$/, '').replaceAll('.', ' '));
}

/**
 * A changed field in a record's history, as the record's pages name it: the resource's own label for it, else the
 * form's, else words made from the key.
 */
export function historyFieldLabel(
  key: string,
  resource: Pick<ResourceDescription<{ id: string }>, 'labels' | 'formFields'>,
): string {
  const formLabel = resource.labels?.[key]
    ? undefined
    : resource.formFields && ownLabel(resource.formFields(), [key]);
  return formLabel ?? pathLabel(key, resource.labels);
}
