// The value axis of a chart of measurements: around the values drawn, not from zero. A temperature of 40.1 °C on
// an axis from 0 to 60 is a bump a nurse does not see; from 35 to 41 it is the fever it is (decision 106).

/** At most this many steps between the axis's ends. */
const MOST_STEPS = 8;

/** A step of 1, 2 or 5 times a power of ten, the smallest that covers `span` in MOST_STEPS. */
function roundStep(span: number): number {
  const raw = span / MOST_STEPS;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= raw)!;
}

/**
 * The ends of the value axis for `series` of `points`: a fifth of the values' spread beyond each end (one value, or
 * a flat line, a twentieth of its size, so that it sits inside a band), rounded outwards to a round step.
 * Undefined when there is no value: the chart then keeps its own axis.
 */
export function valueDomain(
  points: readonly Record<string, unknown>[],
  series: readonly string[],
): [number, number] | undefined {
  const values = points.flatMap((point) =>
    series.map((name) => point[name]).filter((value): value is number => typeof value === 'number'),
  );
  const finite = values.filter(Number.isFinite);
  if (!finite.length) return undefined;
  const low = Math.min(...finite);
  const high = Math.max(...finite);
  const size = Math.max(Math.abs(low), Math.abs(high));
  // A flat line at zero (a band nobody wears) sits in a band of one unit.
  const margin = high > low ? Math.max((high - low) / 5, size / 100) : size > 0 ? size / 20 : 1;
  const step = roundStep(high - low + 2 * margin);
  // On the step's own decimals: 5.300000000000001 is 5.3.
  const decimals = Math.min(20, Math.max(0, -Math.floor(Math.log10(step))));
  const onStep = (value: number) => Number(value.toFixed(decimals));
  const floor = onStep(Math.floor((low - margin) / step) * step);
  const ceiling = onStep(Math.ceil((high + margin) / step) * step);
  // Values no scale can hold (a device's nonsense near the largest numbers): the chart keeps its own axis.
  if (!Number.isFinite(floor) || !Number.isFinite(ceiling)) return undefined;
  // Measurements that cannot be negative keep an axis that does not go below zero.
  return [low >= 0 ? Math.max(0, floor) : floor, ceiling];
}
