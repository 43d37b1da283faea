// One parameter of the page's address, read and written in place: a choice a reload, a shared link or Back
// should keep (a chart's period, its data type). Writing replaces the address rather than adding to the history,
// as list filters do, and keeps the page where it is scrolled (the chart is often below the fold); null removes
// the parameter (the default is not written).
import { useSearchParams } from 'react-router';

/**
 * `clears`: the parameters that belong to this one's value and go when it changes (a device's chart type, once
 * another device is chosen).
 */
export function useAddressParam(
  key: string,
  { clears = [] }: { clears?: readonly string[] } = {},
): [string | null, (value: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = (value: string | null) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (value === null) updated.delete(key);
        else updated.set(key, value);
        if (updated.get(key) !== current.get(key)) for (const dependent of clears) updated.delete(dependent);
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );
  return [params.get(key), set];
}
