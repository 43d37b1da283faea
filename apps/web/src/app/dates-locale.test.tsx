// A Thai date picker never names its weekdays in English: when the screen turns Thai before dayjs's Thai names
// have arrived (here the catalogs are all loaded already, so the switch is immediate), the pickers wait for
// them; the first picker a Thai reader sees is Thai.
import { MantineProvider } from '@mantine/core';
import { DatePicker, useDatesContext } from '@mantine/dates';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { Suspense, useLayoutEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage, useLanguage } from '@/lib/i18n/language.ts';
import { ConsoleDatesProvider } from './dates-locale.tsx';

afterEach(cleanup);

const ENGLISH = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];
const THAI = ['จ.', 'อ.', 'พ.', 'พฤ.', 'ศ.', 'ส.', 'อา.'];

/** Every picker put on screen: the console's language then, and the weekday headers it showed. */
const shown: { language: string; weekdays: string[] }[] = [];

function Probe() {
  const language = useLanguage();
  // Renders again whenever the pickers' locale changes, as they do.
  useDatesContext();
  // Runs on every commit that shows this tree, after the picker's headers are in the page.
  useLayoutEffect(() => {
    const weekdays = [...document.querySelectorAll('thead th')].map((cell) => cell.textContent ?? '');
    if (weekdays.length > 0) shown.push({ language, weekdays });
  });
  return null;
}

describe('the date pickers’ weekday names', () => {
  it('are Thai on the first render in Thai, never English', async () => {
    render(
      <MantineProvider>
        <Suspense fallback={<p>Loading</p>}>
          <ConsoleDatesProvider>
            <DatePicker defaultDate="2026-01-01" />
            <Probe />
          </ConsoleDatesProvider>
        </Suspense>
      </MantineProvider>,
    );
    await waitFor(() => expect(shown.at(-1)).toEqual({ language: 'en', weekdays: ENGLISH }));

    await act(() => changeLanguage('th'));
    await waitFor(() => expect(shown.at(-1)?.weekdays).toEqual(THAI));
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(THAI);
    const thai = shown.filter((picker) => picker.language === 'th');
    expect(thai.length).toBeGreaterThan(0);
    expect(thai.filter((picker) => picker.weekdays.join() !== THAI.join())).toEqual([]);

    // And back: English names again, at once.
    await act(() => changeLanguage('en'));
    expect(shown.at(-1)).toEqual({ language: 'en', weekdays: ENGLISH });
  });
});
