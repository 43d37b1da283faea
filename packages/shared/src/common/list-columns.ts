// The columns of a resource's list, once for both readers: the console's table shows them (truncated, with
// the full text on hover) and the server's CSV export writes the same columns in full, so an exported file
// opens in a spreadsheet with what the screen showed.
import type { TruncationLength } from './formats.ts';
import type { RecordLabels } from './label-context.ts';

/** What a cell holds: plain text or a number, already formatted for people (dates as DD.MM.YYYY). */
export type CellValue = string | number | boolean | null;

export interface ListColumn<Item, SortPath extends string = string, Key extends string = string> {
  /** Stable key (the CSV header's machine name and the table's column accessor). */
  key: Key;
  /**
   * Header shown in the table and written in the CSV file, in English; Thai's is in i18n/column-titles.ts,
   * under the list's name and this key.
   */
  title: string;
  /**
   * The cell's value for one record of the list (with `relations` embedded), its words (enumeration values,
   * Yes and No, dates) in the reader's language: `englishLabels` unless the reader reads another.
   */
  value: (item: Item, labels: RecordLabels) => CellValue;
  /** The sort path this column orders by, when the list can sort on it. */
  sort?: SortPath;
  /** Relations the value reads (`relations=` of the list request). */
  relations?: readonly string[];
  /** Truncate in the table at one of the spec's lengths; the full text shows on hover. */
  truncate?: TruncationLength;
}

/**
 * Checks a column list against its item type and sort paths; returns it unchanged, its keys kept as they are
 * written (`'name' | 'username' | …`), so the titles of other languages can be typed against them. Called
 * twice, `defineColumns<User, UserSort>()([...])`: the first call names the item, the second infers the keys.
 */
export const defineColumns =
  <Item, SortPath extends string = string>() =>
  <const Key extends string>(columns: readonly ListColumn<Item, SortPath, Key>[]) =>
    columns;

/** The keys of a column list made by defineColumns. */
export type ColumnKey<Columns extends readonly { key: string }[]> = Columns[number]['key'];

/** A title for each column of a list and for no other: another language's headers (i18n/column-titles.ts). */
export type ColumnTitles<Columns extends readonly { key: string }[]> = Readonly<
  Record<ColumnKey<Columns>, string>
>;

/** The relations every column of a list needs, each once. */
export const columnRelations = (columns: readonly ListColumn<never>[]) => [
  ...new Set(columns.flatMap((column) => column.relations ?? [])),
];

/** Where a list is exported as CSV: the list's address plus `/export.csv`, with the list's query. */
export const csvExportPath = (listPath: string) => `${listPath}/export.csv`;
