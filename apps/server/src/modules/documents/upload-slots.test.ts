import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors.js';
import { createUploadSlots } from './upload-slots.js';

describe('upload slots', () => {
  it('gives each caller its own slots and refuses one more with a 429 and Retry-After', () => {
    const slots = createUploadSlots(2);
    const first = slots.take('ann');
    slots.take('ann');
    slots.take('bob');
    let refused: unknown;
    try {
      slots.take('ann');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 429, retryAfter: 5 });
    expect(slots.inUse()).toBe(3);
    first();
    expect(() => slots.take('ann')).not.toThrow();
  });

  it('gives a slot back once, however often the release is called', () => {
    const slots = createUploadSlots(1);
    const release = slots.take('ann');
    release();
    release();
    expect(slots.inUse()).toBe(0);
    slots.take('ann');
    expect(() => slots.take('ann')).toThrow(/At most 1 upload at once/);
  });
});
