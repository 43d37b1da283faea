import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher.js';

describe('the write batcher', () => {
  it('flushes on size, settles each add with its flush, and fails the items of a failed flush', async () => {
    const flushed: number[][] = [];
    const batcher = createBatcher<number>({
      maxSize: 3,
      maxDelayMs: 60_000,
      flush: async (items) => {
        flushed.push(items);
        if (items.includes(13)) throw new Error('database down');
      },
    });
    await Promise.all([batcher.add(1), batcher.add(2), batcher.add(3)]);
    expect(flushed).toEqual([[1, 2, 3]]);
    const failing = [11, 12, 13].map((item) => batcher.add(item));
    await expect(Promise.all(failing)).rejects.toThrow('database down');
    expect(flushed).toEqual([
      [1, 2, 3],
      [11, 12, 13],
    ]);
  });

  it('flushes a partial batch after the delay, weighs items, and drains what is queued', async () => {
    const flushed: string[][] = [];
    const batcher = createBatcher<string>({
      maxSize: 10,
      maxDelayMs: 1,
      weigh: (item) => item.length,
      flush: async (items) => {
        flushed.push(items);
      },
    });
    await batcher.add('a');
    expect(flushed).toEqual([['a']]);
    await Promise.all([batcher.add('bbbbbbbbbb'), batcher.add('c')]);
    expect(flushed.slice(1).flat()).toEqual(['bbbbbbbbbb', 'c']);
    const pending = batcher.add('d');
    await batcher.drain();
    await pending;
    expect(flushed.at(-1)).toEqual(['d']);
  });

  it('runs at most `concurrency` flushes at once', async () => {
    let active = 0;
    let most = 0;
    const batcher = createBatcher<number>({
      maxSize: 1,
      maxDelayMs: 0,
      concurrency: 2,
      flush: async () => {
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setImmediate(resolve));
        active -= 1;
      },
    });
    await Promise.all(Array.from({ length: 10 }, (_, index) => batcher.add(index)));
    expect(most).toBe(2);
  });

  it('keeps batches at maxSize while flushes run, so a backlog goes in batches of that size', async () => {
    const flushed: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = createBatcher<number>({
      maxSize: 3,
      maxDelayMs: 60_000,
      flush: async (items) => {
        flushed.push(items);
        await gate;
      },
    });
    const added = Array.from({ length: 10 }, (_, index) => batcher.add(index));
    expect(flushed).toEqual([[0, 1, 2]]);
    release();
    const drained = batcher.drain();
    await Promise.all(added);
    await drained;
    expect(flushed).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]);
  });
});
