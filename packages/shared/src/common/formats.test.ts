import { afterEach, describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDateTimeWithZone,
  formatMonth,
  formatUnixDate,
  formatNumber,
  formatTime,
  formatWaited,
  setDefaultFormatLanguage,
  truncate,
  truncationLengths,
  shortSha256,
} from './formats.ts';

// 1 December 2020, 07:05 UTC: the privacy policy's effective date.
const moment = Date.UTC(2020, 11, 1, 7, 5, 30);

describe('formatDate', () => {
  it('writes DD.MM.YYYY with leading zeros', () => {
    expect(formatDate(moment, 'UTC')).toBe('01.12.2020');
    expect(formatDate(new Date(moment), 'UTC')).toBe('01.12.2020');
    expect(formatDate('2020-12-01T07:05:30.000Z', 'UTC')).toBe('01.12.2020');
  });

  it('takes the calendar day of the given zone', () => {
    // 20:00 UTC on 30 November is already 1 December in Bangkok (UTC+7).
    const evening = Date.UTC(2020, 10, 30, 20, 0);
    expect(formatDate(evening, 'UTC')).toBe('30.11.2020');
    expect(formatDate(evening, 'Asia/Bangkok')).toBe('01.12.2020');
  });

  it('shows nothing for a missing or unreadable date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('formatDateTime', () => {
  it('writes the date, the hour and minute in 24-hour time, and the zone offset', () => {
    expect(formatDateTime(moment, 'UTC')).toBe('01.12.2020 07:05 GMT+00:00');
    expect(formatDateTime(moment, 'Asia/Bangkok')).toBe('01.12.2020 14:05 GMT+07:00');
    expect(formatDateTime(moment, 'America/New_York')).toBe('01.12.2020 02:05 GMT-05:00');
  });

  it('writes midnight as 00, not 24', () => {
    expect(formatDateTime(Date.UTC(2021, 0, 1, 0, 0), 'UTC')).toBe('01.01.2021 00:00 GMT+00:00');
  });

  it('shows nothing for a missing date', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('yesterday')).toBe('');
  });
});

describe('formatDate and formatDateTime, against Intl itself', () => {
  // A day whose offset does not change is written from the offset alone (formats.ts): every date must still read
  // exactly as Intl writes it, in zones of half and three-quarter hours, offsets changing by half an hour, a day
  // skipped across the date line, local mean times with seconds until the 20th century, and the runtime's own.
  const zones = [
    undefined,
    'UTC',
    'Asia/Bangkok',
    'America/New_York',
    'Europe/Berlin',
    'America/St_Johns',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'Pacific/Apia',
    'Africa/Monrovia',
  ];
  const HOUR = 3_600_000;
  const MINUTE = 60_000;

  function intlWrites(timeZone: string | undefined) {
    const format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    return (time: number) => {
      const part = Object.fromEntries(format.formatToParts(time).map(({ type, value }) => [type, value]));
      const offset = part.timeZoneName === 'GMT' ? 'GMT+00:00' : part.timeZoneName;
      const date = `${part.day}.${part.month}.${part.year}`;
      return { date, dateTime: `${date} ${part.hour}:${part.minute} ${offset}`, offset };
    };
  }

  /** Each moment whose date or date and time differ from Intl's, as `moment: ours ≠ Intl's`. */
  function differences(timeZone: string | undefined, moments: Iterable<number>) {
    const intl = intlWrites(timeZone);
    const found: string[] = [];
    for (const time of moments) {
      const expected = intl(time);
      const dateTime = formatDateTime(time, timeZone);
      const date = formatDate(time, timeZone);
      if (dateTime !== expected.dateTime || date !== expected.date) {
        found.push(`${new Date(time).toISOString()}: ${dateTime} ≠ ${expected.dateTime}`);
      }
    }
    return found;
  }

  function* every(step: number, from: number, until: number) {
    for (let time = from; time < until; time += step) yield time;
  }

  it.each(zones)('writes every date of 1899–2040 as Intl does (%s)', (zone) => {
    const step = 5 * 24 * HOUR + 7 * HOUR + 13 * MINUTE + 17_000;
    expect(differences(zone, every(step, Date.UTC(1899, 11, 25), Date.UTC(2040, 0, 1)))).toEqual([]);
  });

  it.each(zones)(
    'writes every minute around each change of offset in 2011 and 2026 as Intl does (%s)',
    (zone) => {
      const intl = intlWrites(zone);
      const changes: number[] = [];
      for (const year of [2011, 2026]) {
        for (const time of every(HOUR, Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1))) {
          if (intl(time).offset !== intl(time + HOUR).offset) changes.push(time);
        }
      }
      if (
        zone &&
        zone !== 'UTC' &&
        zone !== 'Asia/Bangkok' &&
        zone !== 'Asia/Kathmandu' &&
        zone !== 'Africa/Monrovia'
      ) {
        expect(changes.length).toBeGreaterThan(0);
      }
      for (const change of changes) {
        const around = [...every(MINUTE, change - 2 * HOUR, change + 3 * HOUR)].flatMap((time) => [
          time - 1,
          time,
        ]);
        expect(differences(zone, around)).toEqual([]);
      }
    },
  );
});

describe('formatDateTimeWithZone', () => {
  it('names the zone after its offset', () => {
    expect(formatDateTimeWithZone(moment, 'Asia/Bangkok')).toBe('01.12.2020 14:05 GMT+07:00 (Asia/Bangkok)');
    expect(formatDateTimeWithZone(moment, 'UTC')).toBe('01.12.2020 07:05 GMT+00:00 (UTC)');
  });

  it("uses the runtime's own zone when none is given, and shows nothing for a missing date", () => {
    const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatDateTimeWithZone(moment)).toBe(`${formatDateTime(moment, zone)} (${zone})`);
    expect(formatDateTimeWithZone(null)).toBe('');
  });
});

describe('formatUnixDate', () => {
  it('reads seconds since the epoch and writes DD/MM/YYYY', () => {
    expect(formatUnixDate(1606780800, 'UTC')).toBe('01/12/2020');
    expect(formatUnixDate(0, 'UTC')).toBe('01/01/1970');
    expect(formatUnixDate(1606780800 - 1, 'UTC')).toBe('30/11/2020');
  });

  it('shows nothing for a missing or impossible time', () => {
    expect(formatUnixDate(null)).toBe('');
    expect(formatUnixDate(undefined)).toBe('');
    expect(formatUnixDate(Number.NaN)).toBe('');
    expect(formatUnixDate(Number.POSITIVE_INFINITY)).toBe('');
    expect(formatUnixDate(1e15)).toBe('');
  });
});

describe('truncate', () => {
  const long = 'Careplane operations console for care at home and telemedicine, in one place';

  it('keeps text at or under the length as it is', () => {
    expect(truncate('Careplane', 10)).toBe('Careplane');
    expect(truncate('0123456789', 10)).toBe('0123456789');
  });

  it('cuts longer text at each of the four lengths and marks the cut', () => {
    for (const length of Object.values(truncationLengths)) {
      const cut = truncate(long, length);
      expect(cut.endsWith('…')).toBe(true);
      expect(Array.from(cut).length).toBeLessThanOrEqual(length + 1);
      expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    }
    expect(truncate(long, 10)).toBe('Careplane…');
    expect(truncate(long, 20)).toBe('Careplane operations…');
  });

  it('never splits a character made of two code units', () => {
    const text = '😀'.repeat(12);
    expect(truncate(text, 10)).toBe(`${'😀'.repeat(10)}…`);
  });

  it('gives an empty string for missing text', () => {
    expect(truncate(null, 10)).toBe('');
    expect(truncate(undefined, 60)).toBe('');
  });
});

describe('shortSha256', () => {
  it('keeps the first and last eight hex digits of a digest, and short text as it is', () => {
    expect(shortSha256('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')).toBe(
      '9f86d081…b0f00a08',
    );
    expect(shortSha256('abc')).toBe('abc');
  });
});

describe('formatWaited', () => {
  // A span, also under a minute: the console's cards read `Waiting for {{waited}}`, never `Waiting for just now`.
  it('names the two largest units, and under a minute a span too', () => {
    const minute = 60_000;
    expect(formatWaited(0)).toBe('less than a minute');
    expect(formatWaited(59_999)).toBe('less than a minute');
    expect(formatWaited(-5 * minute)).toBe('less than a minute');
    expect(formatWaited(45 * minute)).toBe('45 min');
    expect(formatWaited(60 * minute)).toBe('1 h');
    expect(formatWaited(125 * minute)).toBe('2 h 5 min');
    expect(formatWaited(24 * 60 * minute)).toBe('1 d');
    expect(formatWaited((3 * 24 * 60 + 4 * 60 + 59) * minute)).toBe('3 d 4 h');
  });
});

describe('in Thai', () => {
  afterEach(() => setDefaultFormatLanguage('en'));
  const thai = { language: 'th' } as const;

  it('keeps the shapes and counts years in the Buddhist era', () => {
    expect(formatDate(moment, 'UTC', thai)).toBe('01.12.2563');
    expect(formatDateTime(moment, 'Asia/Bangkok', thai)).toBe('01.12.2563 14:05 GMT+07:00');
    expect(formatUnixDate(1606780800, 'UTC', thai)).toBe('01/12/2563');
    expect(formatDateTimeWithZone(moment, 'Asia/Bangkok', thai)).toBe(
      '01.12.2563 14:05 GMT+07:00 (Asia/Bangkok)',
    );
  });

  it('counts in the common era when asked, and in English by default', () => {
    expect(formatDate(moment, 'UTC', { language: 'th', era: 'common' })).toBe('01.12.2020');
    expect(formatDate(moment, 'UTC')).toBe('01.12.2020');
    expect(formatDate(moment, 'UTC', { language: 'en' })).toBe('01.12.2020');
  });

  it('follows the language the console set as the default', () => {
    setDefaultFormatLanguage('th');
    expect(formatDate(moment, 'UTC')).toBe('01.12.2563');
    expect(formatWaited(125 * 60_000)).toBe('2 ชม. 5 นาที');
    // An explicit style still wins: an English reader's date is in the common era.
    expect(formatDate(moment, 'UTC', { language: 'en' })).toBe('01.12.2020');
    setDefaultFormatLanguage('en');
    expect(formatDate(moment, 'UTC')).toBe('01.12.2020');
  });

  it('names a month of the statistics by its Buddhist-era year in Thai', () => {
    expect(formatMonth('2025-12', thai)).toBe('12.68');
    expect(formatMonth('2026-01', { language: 'en' })).toBe('01.26');
    setDefaultFormatLanguage('th');
    expect(formatMonth('2026-01')).toBe('01.69');
    expect(formatMonth('not a month')).toBe('not a month');
  });

  it('says how long something waited in Thai units', () => {
    expect(formatWaited(10_000, thai)).toBe('ไม่ถึง 1 นาที');
    expect(formatWaited(45 * 60_000, thai)).toBe('45 นาที');
    expect(formatWaited((3 * 1440 + 4 * 60) * 60_000, thai)).toBe('3 วัน 4 ชม.');
  });
});

describe('formatTime and formatNumber', () => {
  it('write the time of day in 24-hour time in either language', () => {
    expect(formatTime(moment, 'Asia/Bangkok', { language: 'en' })).toBe('14:05');
    expect(formatTime(moment, 'Asia/Bangkok', { language: 'th' })).toBe('14:05');
    expect(formatTime(null)).toBe('');
  });

  it('group digits with the locale, in Arabic numerals as Thai forms use', () => {
    expect(formatNumber(1234567.891, { language: 'en' })).toBe('1,234,567.89');
    expect(formatNumber(1234567.891, { language: 'th' })).toBe('1,234,567.89');
    expect(formatNumber(0.5, { language: 'th', maximumFractionDigits: 0 })).toMatch(/^[01]$/);
    expect(formatNumber(Number.NaN)).toBe('');
  });
});
