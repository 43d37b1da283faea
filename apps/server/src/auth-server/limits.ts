// Rate limits of the sign-in endpoints that are keyed by something other than the caller's address (an
// identity, a client): fixed windows in this process. With several processes each one counts on its own (the
// limit is then per process); a shared store behind the same interface is the step for REDIS_URL.
import { AppError } from '../lib/errors.js';

export interface LimitStore {
  /** Counts one hit on `key` and returns the count within the current window and when it ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
}

export class MemoryLimitStore implements LimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, windowMs: number) {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 100_000) this.sweep(now);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { ...window };
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

export class TooManyRequests extends AppError {
  constructor(readonly retryAfter: number) {
    super(429, 'Too many requests, try again later');
  }
}

export class Limiter {
  constructor(
    private readonly store: LimitStore,
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Throws TooManyRequests (with the seconds to wait) once `key` exceeded the limit in this window. */
  async check(key: string): Promise<void> {
    const { count, resetAt } = await this.store.hit(key, this.windowMs);
    if (count > this.max) throw new TooManyRequests(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)));
  }
}
