import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNavigationProgress } from './navigation-progress.ts';

const fakeBar = () => ({ set: vi.fn(), complete: vi.fn(), reset: vi.fn() });

describe('the navigation progress bar', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stays hidden for a navigation shorter than 200 ms', () => {
    const bar = fakeBar();
    const progress = createNavigationProgress(bar);
    progress.start();
    vi.advanceTimersByTime(199);
    progress.finish();
    vi.advanceTimersByTime(1000);
    expect(bar.set).not.toHaveBeenCalled();
    expect(bar.complete).not.toHaveBeenCalled();
  });

  it('appears after 200 ms and fills over 5 seconds, holding short of the end', () => {
    const bar = fakeBar();
    const progress = createNavigationProgress(bar);
    progress.start();
    vi.advanceTimersByTime(200);
    expect(bar.set).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2500);
    expect(bar.set.mock.lastCall?.[0]).toBeCloseTo(50, 0);
    vi.advanceTimersByTime(10_000);
    expect(bar.set.mock.lastCall?.[0]).toBe(95);
    progress.finish();
    expect(bar.complete).toHaveBeenCalledTimes(1);
  });

  it('ignores a second start while a navigation is running', () => {
    const bar = fakeBar();
    const progress = createNavigationProgress(bar);
    progress.start();
    vi.advanceTimersByTime(150);
    progress.start();
    vi.advanceTimersByTime(50);
    expect(bar.set).toHaveBeenCalledTimes(1);
  });
});
