// A small write batcher: items wait until `maxSize` of them (by weight) are queued or `maxDelayMs` has passed
// since the first one, then one `flush` call takes them all. Each `add` settles when its flush has settled, so
// a caller acknowledges its item only once the item is durable. At most `concurrency` flushes run at once;
// items that arrive meanwhile form the next batch.

export interface BatcherOptions<T> {
  /** Weight at which a batch is flushed at once (a weight per item, 1 by default). */
  maxSize: number;
  /** How long the first item of a batch waits for others. */
  maxDelayMs: number;
  weigh?: (item: T) => number;
  /** Flushes under way at once at most (1 by default). */
  concurrency?: number;
  flush: (items: T[]) => Promise<void>;
}

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface Batcher<T> {
  add(item: T): Promise<void>;
  /** Flushes what is queued and waits for every flush under way. */
  drain(): Promise<void>;
}

export function createBatcher<T>(options: BatcherOptions<T>): Batcher<T> {
  const weigh = options.weigh ?? (() => 1);
  let queue: Pending<T>[] = [];
  let weight = 0;
  let timer: NodeJS.Timeout | null = null;
  const concurrency = options.concurrency ?? 1;
  const running = new Set<Promise<void>>();

  const take = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = queue;
    queue = [];
    weight = 0;
    return batch;
  };

  const run = async (batch: Pending<T>[]) => {
    if (batch.length === 0) return;
    try {
      await options.flush(batch.map((pending) => pending.item));
      for (const pending of batch) pending.resolve();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  };

  // When a flush ends, whatever queued meanwhile goes next if it is full or overdue.
  const schedule = () => {
    if (running.size >= concurrency || queue.length === 0) return;
    const batch = take();
    const flight: Promise<void> = run(batch).finally(() => {
      running.delete(flight);
      if (queue.length && (weight >= options.maxSize || timer === null)) schedule();
    });
    running.add(flight);
  };

  return {
    add(item) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        weight += weigh(item);
        if (weight >= options.maxSize) {
          schedule();
        } else if (!timer && queue.length === 1) {
          timer = setTimeout(() => {
            timer = null;
            schedule();
          }, options.maxDelayMs);
        }
      });
    },
    async drain() {
      while (queue.length || running.size) {
        schedule();
        await Promise.race(running);
      }
    },
  };
}
