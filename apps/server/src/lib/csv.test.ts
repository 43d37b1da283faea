import { describe, expect, it } from 'vitest';
import { csvCell, csvFileName, csvLine } from './csv.js';

describe('CSV cells', () => {
  it('quote what needs quoting and double the quotes inside', () => {
    expect(csvLine(['plain', 'a, b', 'say "hi"', 'two\nlines', null, 42, true])).toBe(
      'plain,"a, b","say ""hi""","two\nlines",,42,true\r\n',
    );
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell('สมชาย ใจดี')).toBe('สมชาย ใจดี');
  });

  it('never let a spreadsheet run a cell as a formula', () => {
    for (const formula of ['=HYPERLINK("http://evil")', '+1+2', '-2+3', '@SUM(A1)']) {
      expect(csvCell(formula).replace(/^"|"$/g, '')).toMatch(/^'/);
    }
    expect(csvCell(-5)).toBe('-5');
  });

  it('names the file by what it holds and when', () => {
    expect(csvFileName('users', new Date('2026-11-23T14:05:09Z'))).toBe('users 2026-11-23 14-05.csv');
    // In the reader's zone: 17:36 UTC is 00:36 the next day in Bangkok.
    expect(csvFileName('users', new Date('2026-11-29T17:36:00Z'), 'Asia/Bangkok')).toBe(
      'users 2026-11-30 00-36.csv',
    );
  });
});
