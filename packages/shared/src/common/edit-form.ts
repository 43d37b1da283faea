// The edit-form rule of spec §5: a form sends only the fields that changed and are not null, found by deep
// comparison with the record it started from, together with a flag saying whether anything changed.

export interface EditFormChanges<T extends object> {
  /** The fields to send: changed against the original, and neither null nor undefined. */
  changes: Partial<T>;
  /** Whether any field to send changed; false means there is nothing to save. */
  changed: boolean;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/**
 * Structural equality as the API sees the values (JSON): key order does not matter, a key holding
 * undefined is the same as a missing key, dates compare by their time.
 */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (left instanceof Date || right instanceof Date) {
    return left instanceof Date && right instanceof Date && left.getTime() === right.getTime();
  }
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => deepEqual(item, right[index]));
  }
  if (isPlainObject(left) && isPlainObject(right)) {
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    for (const key of keys) if (!deepEqual(left[key], right[key])) return false;
    return true;
  }
  return false;
}

/** The changed, non-null fields of `values` against `original`, and whether there are any. */
export function editFormChanges<T extends object>(original: Partial<T>, values: T): EditFormChanges<T> {
  const changes: Partial<T> = {};
  for (const key of Object.keys(values) as (keyof T & string)[]) {
    const value = values[key];
    if (value === null || value === undefined) continue;
    if (deepEqual(value, original[key])) continue;
    changes[key] = value;
  }
  return { changes, changed: Object.keys(changes).length > 0 };
}
