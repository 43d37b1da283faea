// The headers of list columns in Thai, for the server (CSV exports) and the console (its Thai catalogs'
// `columns`). English is each column's own `title` (`*/*.columns.ts`); Thai has a title for every column of
// every list, typed against the column definitions, so a column added without its Thai fails `tsc`. Lists
// are named as their exports are: the resource's name (`device-jobs`), or the view's (`patients`).
// Each area's titles are a file of their own (column-titles/<area>.ts), imported by this table and by the
// console's Thai catalog of that area: they load with that catalog and with nothing else, so nothing on the
// first page carries them (decision 047).
import type { ListColumn } from '../common/list-columns.ts';
import type { Language } from './language-tags.ts';
import { thaiCommandCenterColumnTitles } from './column-titles/command-centers.ts';
import { thaiDeviceColumnTitles } from './column-titles/devices.ts';
import { thaiIotColumnTitles } from './column-titles/iot.ts';
import { thaiPrescriptionColumnTitles } from './column-titles/prescriptions.ts';
import { thaiServiceProviderColumnTitles } from './column-titles/service-providers.ts';
import { thaiUserColumnTitles } from './column-titles/users.ts';

/** Every list with columns, by the name its CSV export is written under: each column's title in Thai. */
export const thaiColumnTitles = {
  ...thaiUserColumnTitles,
  ...thaiDeviceColumnTitles,
  ...thaiIotColumnTitles,
  ...thaiServiceProviderColumnTitles,
  ...thaiCommandCenterColumnTitles,
  ...thaiPrescriptionColumnTitles,
};

export type ColumnList = keyof typeof thaiColumnTitles;

/**
 * A column's header in a language: Thai's title where the list has one for the column; otherwise (English,
 * or a list or column this table does not know) the column's own English title, as exports have always had.
 */
export function columnTitle(
  list: string,
  column: Pick<ListColumn<never>, 'key' | 'title'>,
  language: Language = 'en',
): string {
  if (language === 'th' && Object.hasOwn(thaiColumnTitles, list)) {
    const titles: Readonly<Record<string, string>> = thaiColumnTitles[list as ColumnList];
    if (Object.hasOwn(titles, column.key)) return titles[column.key]!;
  }
  return column.title;
}
