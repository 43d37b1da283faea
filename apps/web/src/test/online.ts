// The browser's network as a test sets it: `navigator.onLine`, and the online and offline events the console
// and TanStack Query's online manager listen to, as a phone losing or finding the network. The spy is undone by
// the test file's `vi.restoreAllMocks()`.
import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** The browser online (or as told) from now on; the function answered takes the network away or gives it back. */
export function browserNetwork(initially = true): (online: boolean) => void {
  let online = initially;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  return (value: boolean) => {
    online = value;
    act(() => {
      window.dispatchEvent(new Event(value ? 'online' : 'offline'));
    });
  };
}
