// One parameter of the page's address, read and written in place: a choice a reload, a shared link or Back
// should keep (a chart's period, its data type). Writing replaces the address rather than adding to the history,
// as list filters do, and keeps the page where it is scrolled (the chart is often below the fold); null removes
// the parameter (the default is not written).
import { useSearchParams } from 'react-router';

export function useAddressParam(key: string): [string | null, (value: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = (value: string | null) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (value === null) updated.delete(key);
        else updated.set(key, value);
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );
  return [params.get(key), set];
}
