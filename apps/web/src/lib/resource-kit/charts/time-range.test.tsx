// Choosing days for a chart: the first day picked stays marked while the second is chosen, the chart's range
// changes only once both are, a single day can be chosen by picking it twice, and clearing returns to the
// default period.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider.tsx';
import { resetSession } from '@/test/app.tsx';
import {
  DEFAULT_PRESET,
  rangeFromParam,
  rangeToParam,
  recentRange,
  TimeRangePicker,
  type TimeRange,
} from './time-range.tsx';

const NOW = new Date('2026-11-20T15:00:00').getTime();
const dayStart = (day: string) => new Date(`${day}T00:00:00`).getTime();

function Chart({ onChange }: { onChange: (range: TimeRange) => void }) {
  const [range, setRange] = useState<TimeRange>(() => recentRange(DEFAULT_PRESET));
  return (
    <TimeRangePicker
      value={range}
      onChange={(next) => {
        setRange(next);
        onChange(next);
      }}
    />
  );
}

const open = async (user: ReturnType<typeof userEvent.setup>) => {
  render(
    <AppProvider env="test">
      <Chart onChange={changes} />
    </AppProvider>,
  );
  await user.click(screen.getByRole('button', { name: 'Or pick days' }));
  // The month of today opens, its days named in full.
  await screen.findByRole('button', { name: '20 November 2026' });
  return screen;
};

const changes = vi.fn<(range: TimeRange) => void>();
beforeEach(() => {
  resetSession();
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  changes.mockClear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('choosing days for a chart', () => {
  it('keeps the first day marked and changes the range once the second is picked', async () => {
    const user = userEvent.setup();
    const calendar = await open(user);
    await user.click(calendar.getByRole('button', { name: '10 November 2026' }));
    expect(calendar.getByRole('button', { name: '10 November 2026' })).toHaveAttribute('data-selected');
    expect(changes).not.toHaveBeenCalled();

    await user.click(calendar.getByRole('button', { name: '12 November 2026' }));
    expect(changes).toHaveBeenLastCalledWith({
      preset: 'custom',
      from: dayStart('2026-11-10'),
      to: dayStart('2026-11-13') - 1,
    });
    expect(screen.getByRole('radio', { name: 'Days' })).toBeChecked();
  });

  it('chooses one day when it is picked twice', async () => {
    const user = userEvent.setup();
    const calendar = await open(user);
    await user.click(calendar.getByRole('button', { name: '18 November 2026' }));
    await user.click(calendar.getByRole('button', { name: '18 November 2026' }));
    expect(changes).toHaveBeenLastCalledWith({
      preset: 'custom',
      from: dayStart('2026-11-18'),
      to: dayStart('2026-11-19') - 1,
    });
  });

  it('does not offer days after today, and names its month arrows', async () => {
    const user = userEvent.setup();
    const calendar = await open(user);
    expect(calendar.getByRole('button', { name: '21 November 2026' })).toBeDisabled();
    expect(calendar.getByRole('button', { name: 'Next month' })).toBeDisabled();
    await user.click(calendar.getByRole('button', { name: 'Previous month' }));
    expect(await calendar.findByRole('button', { name: '31 October 2026' })).toBeEnabled();
  });

  it('returns to the default period when the chosen days are cleared', async () => {
    const user = userEvent.setup();
    const calendar = await open(user);
    await user.click(calendar.getByRole('button', { name: '10 November 2026' }));
    await user.click(calendar.getByRole('button', { name: '12 November 2026' }));
    await user.click(screen.getByRole('button', { name: 'Clear the chosen days' }));
    expect(changes).toHaveBeenLastCalledWith(recentRange(DEFAULT_PRESET, NOW));
    expect(screen.getByRole('radio', { name: '24 h' })).toBeChecked();
  });
});

describe('a range in the address', () => {
  it('names a recent period, reckoned from now when read, and writes nothing for the default', () => {
    expect(rangeToParam(recentRange('7d', NOW))).toBe('7d');
    expect(rangeFromParam('7d', NOW)).toEqual(recentRange('7d', NOW));
    expect(rangeToParam(recentRange(DEFAULT_PRESET, NOW))).toBeNull();
    expect(rangeFromParam(null, NOW)).toEqual(recentRange(DEFAULT_PRESET, NOW));
  });

  it('names two chosen days and reads them back to the same whole days', () => {
    const days: TimeRange = {
      preset: 'custom',
      from: dayStart('2026-11-10'),
      to: dayStart('2026-11-13') - 1,
    };
    expect(rangeToParam(days)).toBe('2026-11-10..2026-11-12');
    expect(rangeFromParam('2026-11-10..2026-11-12', NOW)).toEqual(days);
  });

  it('reads what is not a period or two days in order as the default period', () => {
    for (const param of ['1y', 'constructor', '2026-11-12..2026-11-10', '2026-13-40..2026-11-10', '7d..']) {
      expect(rangeFromParam(param, NOW), param).toEqual(recentRange(DEFAULT_PRESET, NOW));
    }
  });
});
