// Spec §9: the thin bar at the top during navigation. It appears only when a navigation takes longer than
// 200 ms (throttle), then fills evenly so that it would be full after 5 s (duration), holding just short of
// the end until the navigation finishes.

export const PROGRESS_THROTTLE_MS = 200;
export const PROGRESS_DURATION_MS = 5000;
const STEP_MS = 100;
const HOLD_AT = 95;

export interface ProgressBar {
  set(value: number): void;
  complete(): void;
  reset(): void;
}

export function createNavigationProgress(
  bar: ProgressBar,
  { throttleMs = PROGRESS_THROTTLE_MS, durationMs = PROGRESS_DURATION_MS } = {},
) {
  let throttle: ReturnType<typeof setTimeout> | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  let value = 0;

  const clear = () => {
    if (throttle !== undefined) clearTimeout(throttle);
    if (ticker !== undefined) clearInterval(ticker);
    throttle = undefined;
    ticker = undefined;
  };

  return {
    /** A navigation began; starting again while one runs changes nothing. */
    start() {
      if (throttle !== undefined || ticker !== undefined) return;
      throttle = setTimeout(() => {
        throttle = undefined;
        value = 0;
        const step = (100 * STEP_MS) / durationMs;
        ticker = setInterval(() => {
          value = Math.min(HOLD_AT, value + step);
          bar.set(value);
        }, STEP_MS);
        bar.set(step);
      }, throttleMs);
    },
    /** The navigation ended: a bar that showed completes; one that never showed stays hidden. */
    finish() {
      const shown = ticker !== undefined;
      clear();
      if (shown) bar.complete();
      value = 0;
    },
    dispose() {
      clear();
      bar.reset();
    },
  };
}
