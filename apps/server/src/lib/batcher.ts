// A small write batcher: items wait until `maxSize` of them (by weight) are queued or `maxDelayMs` has passed
// since the oldest, then one `flush` call takes up to `maxSize` of them. Each `add` settles when its flush has
// settled, so a caller acknowledges its item only once the item is durable. At most `concurrency` flushes run
// at once; what arrives meanwhile waits in batches of `maxSize` for the next free one.

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
  const concurrency = options.concurrency ?? 1;
  let queue: Pending<T>[] = [];
  let weight = 0;
  let timer: NodeJS.Timeout | null = null;
  /** The oldest queued item has waited its delay (or a drain asked): a partial batch may go. */
  let overdue = false;
  const running = new Set<Promise<void>>();

  /** The oldest items up to `maxSize` by weight (at least one): big batches stay the size that writes fast. */
  const take = () => {
    let count = 0;
    let taken = 0;
    while (count < queue.length) {
      const next = weigh(queue[count]!.item);
      if (count > 0 && taken + next > options.maxSize) break;
      taken += next;
      count += 1;
    }
    const batch = queue.slice(0, count);
    queue = queue.slice(count);
    weight -= taken;
    return batch;
  };

  const run = async (batch: Pending<T>[]) => {
    try {
      await options.flush(batch.map((pending) => pending.item));
      for (const pending of batch) pending.resolve();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  };

  // Full batches go at once, a partial one when overdue, each while fewer than `concurrency` flushes run;
  // when one ends, the next waiting batch goes.
  const schedule = () => {
    while (running.size < concurrency && queue.length && (weight >= options.maxSize || overdue)) {
      const flight: Promise<void> = run(take()).finally(() => {
        running.delete(flight);
        schedule();
      });
      running.add(flight);
    }
    if (queue.length === 0) {
      overdue = false;
      if (timer) clearTimeout(timer);
      timer = null;
    } else if (!timer && !overdue) {
      timer = setTimeout(() => {
        timer = null;
        overdue = true;
        schedule();
      }, options.maxDelayMs);
    }
  };

  return {
    add(item) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        weight += weigh(item);
        schedule();
      });
    },
    async drain() {
      while (queue.length || running.size) {
        overdue = true;
        schedule();
        await Promise.race(running);
      }
    },
  };
}
