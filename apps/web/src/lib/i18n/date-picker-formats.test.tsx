// The date pickers write the year as the rest of the console does: the Buddhist era in Thai, the common era
// in English, while their values stay common-era dates.
import { MantineProvider } from '@mantine/core';
import { DateInput, DatesProvider } from '@mantine/dates';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTypedDate } from '@/lib/resource-kit/form/form-fields.tsx';
import { datePickerFormats, datePickerInputFormats } from './date-picker-formats.ts';

afterEach(cleanup);

describe('date picker formats', () => {
  it('write Buddhist-era years in Thai: the value, month and year headings, years and decades', () => {
    const thai = datePickerFormats('th');
    expect(typeof thai.valueFormat === 'function' && thai.valueFormat('2026-01-05')).toBe('05.01.2569');
    expect(thai.monthLabelFormat?.('2026-01-01')).toBe('มกราคม 2569');
    expect(thai.yearLabelFormat?.('2026-01-01')).toBe('2569');
    expect(thai.yearsListFormat?.('2031-01-01')).toBe('2574');
    expect(thai.decadeLabelFormat?.('2020-01-01', '2029-01-01')).toBe('2563 – 2572');
    const withTime = datePickerFormats('th', true);
    expect(typeof withTime.valueFormat === 'function' && withTime.valueFormat('2026-01-05 14:05:00')).toBe(
      '05.01.2569 14:05',
    );
  });

  it('write a range with Buddhist-era years in Thai', () => {
    const thai = datePickerInputFormats('th');
    const range = thai.valueFormatter?.({
      type: 'range',
      date: ['2026-01-05', '2026-01-09'],
      locale: 'th',
      format: thai.valueFormat,
      labelSeparator: '–',
    });
    expect(range).toBe('05.01.2569 – 09.01.2569');
    expect(datePickerInputFormats('en')).toMatchObject({ valueFormat: 'DD.MM.YYYY' });
  });

  it('keep spec §9’s common-era formats in English', () => {
    expect(datePickerFormats('en')).toMatchObject({ valueFormat: 'DD.MM.YYYY' });
    expect(datePickerFormats('en', true)).toMatchObject({ valueFormat: 'DD.MM.YYYY HH:mm' });
    expect(datePickerFormats('en').ariaLabels).toMatchObject({ previousMonth: 'Previous month' });
  });

  it('read a typed Buddhist-era year back to the common era in Thai only', () => {
    expect(parseTypedDate('05.01.2569', 'th')).toBe('2026-01-05');
    expect(parseTypedDate('05.01.2026', 'th')).toBe('2026-01-05');
    expect(parseTypedDate('05.01.2026')).toBe('2026-01-05');
    expect(parseTypedDate('31.02.2569', 'th')).toBeNull();
  });

  it('show a date field’s common-era value with its Buddhist-era year', () => {
    render(
      <MantineProvider>
        <DatesProvider settings={{ locale: 'en' }}>
          <DateInput
            label="Date of birth"
            value="2026-01-05"
            onChange={() => undefined}
            {...datePickerFormats('th')}
          />
        </DatesProvider>
      </MantineProvider>,
    );
    expect(screen.getByRole('textbox', { name: 'Date of birth' })).toHaveValue('05.01.2569');
  });
});
