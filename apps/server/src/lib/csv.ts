// CSV as spreadsheets read it (RFC 4180): comma-separated, quoted where needed, CRLF line ends, a UTF-8 byte
// order mark so Thai names open correctly. A cell that a spreadsheet would run as a formula (starting with
// =, +, - or @) is written with a leading apostrophe, so an exported file can never run what a user typed.
import type { CellValue } from '@careplane/shared/common/list-columns';

/** The byte order mark that tells spreadsheets the file is UTF-8. */
export const CSV_BOM = '\uFEFF';

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly (CellValue | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * A file name with the moment of the export in the reader's time zone (UTC without one), safe in a
 * content-disposition header: `users 2026-11-23 14-05.csv`.
 */
export function csvFileName(name: string, at = new Date(), timeZone = 'UTC'): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${name} ${parts.year}-${parts.month}-${parts.day} ${parts.hour}-${parts.minute}.csv`;
}
