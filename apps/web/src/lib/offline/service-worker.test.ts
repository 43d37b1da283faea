import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { askReadsAgain, onFirstControl } from './service-worker.ts';

function container(controller: object | null) {
  const target = new EventTarget();
  return Object.assign(target, { controller }) as unknown as ServiceWorkerContainer;
}

describe('the reads of a first visit', () => {
  it('are asked again once, when the service worker first takes control of the page', () => {
    const sw = container(null);
    const again = vi.fn();
    onFirstControl(again, sw);
    sw.dispatchEvent(new Event('controllerchange'));
    sw.dispatchEvent(new Event('controllerchange'));
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('are not asked again where a worker already controls the page, or after the page left', () => {
    const controlled = container({});
    const again = vi.fn();
    onFirstControl(again, controlled);
    controlled.dispatchEvent(new Event('controllerchange'));
    const first = container(null);
    onFirstControl(again, first)();
    first.dispatchEvent(new Event('controllerchange'));
    expect(again).not.toHaveBeenCalled();
    expect(onFirstControl(again, undefined)).toBeTypeOf('function');
  });
});

describe('asking the reads on screen again', () => {
  /** A read on screen whose answers come when the test sends them; `asked` holds each request's signal. */
  function readOnScreen(client: QueryClient) {
    const asked: { signal: AbortSignal; answer: (value: string) => void }[] = [];
    const observer = new QueryObserver(client, {
      queryKey: ['account', 'me'],
      queryFn: ({ signal }) => new Promise<string>((answer) => asked.push({ signal, answer })),
      retry: false,
    });
    const stop = observer.subscribe(() => undefined);
    return { asked, observer, stop };
  }

  it('sends a read whose first request is still out once more, and the first one is called off', async () => {
    const client = new QueryClient();
    const { asked, observer, stop } = readOnScreen(client);
    expect(asked).toHaveLength(1);

    const done = askReadsAgain(client);
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[0]!.signal.aborted).toBe(true);
    asked[1]!.answer('through the worker');
    await done;
    expect(observer.getCurrentResult()).toMatchObject({ status: 'success', data: 'through the worker' });
    stop();
  });

  it('sends a read that has its answer once more, and leaves the reads not on screen alone', async () => {
    const client = new QueryClient();
    const { asked, observer, stop } = readOnScreen(client);
    asked[0]!.answer('before the worker');
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('before the worker'));
    const offScreen = vi.fn(async () => 'kept');
    await client.prefetchQuery({ queryKey: ['elsewhere'], queryFn: offScreen });

    const done = askReadsAgain(client);
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    asked[1]!.answer('through the worker');
    await done;
    expect(observer.getCurrentResult().data).toBe('through the worker');
    expect(offScreen).toHaveBeenCalledTimes(1);
    stop();
  });
});
