// A server-sent event client for tests: opens a stream over HTTP and hands out its events one by one, waiting
// for each as it arrives (no polling, no sleeps).
export interface StreamEvent {
  id?: string;
  event: string;
  data: string;
}

export interface EventStreamClient {
  status: number;
  /** The next event that matches (events before it are dropped); rejects when the stream ends first. */
  next(match?: (event: StreamEvent) => boolean): Promise<StreamEvent>;
  close(): void;
}

export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<EventStreamClient> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const queue: StreamEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const pump = async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let pending = '';
    try {
      for await (const chunk of response.body) {
        pending += decoder.decode(chunk as Uint8Array, { stream: true });
        let split: number;
        while ((split = pending.indexOf('\n\n')) !== -1) {
          const block = pending.slice(0, split);
          pending = pending.slice(split + 2);
          const event: StreamEvent = { event: 'message', data: '' };
          let fields = 0;
          for (const line of block.split('\n')) {
            if (line.startsWith(':') || !line.includes(':')) continue;
            const [name, ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (name === 'id') event.id = value;
            else if (name === 'event') event.event = value;
            else if (name === 'data') event.data = event.data ? `${event.data}\n${value}` : value;
            else continue;
            fields += 1;
          }
          if (fields && (event.data || event.event !== 'message')) queue.push(event);
          wake?.();
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      ended = true;
      wake?.();
    }
  };
  if (response.ok) void pump();
  else ended = true;
  return {
    status: response.status,
    async next(match = () => true) {
      for (;;) {
        while (queue.length) {
          const event = queue.shift()!;
          if (match(event)) return event;
        }
        if (ended) throw new Error('The event stream ended');
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    close: () => abort.abort(),
  };
}
