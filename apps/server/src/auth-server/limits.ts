// Rate limits of the sign-in endpoints that are keyed by something other than the caller's address (an
// identity, a client): fixed windows. In one process they are counted in memory; with REDIS_URL they are
// counted in Redis, so that every server process shares one budget per key, and in memory again while Redis
// does not answer.
import type { Redis } from 'ioredis';
import { AppError, serviceTexts } from '@/lib/errors.js';

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

// One round trip: count the hit, start the window on the first one, answer the count and the time left.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type RedisWithHit = Redis & {
  careplaneLimitHit(key: string, windowMs: number): Promise<[number, number]>;
};

/**
 * Fixed windows in Redis, shared by every process on the same Redis and key prefix. When Redis cannot answer,
 * the hit is counted in this process's memory instead (each process then keeps its own budget, as without
 * Redis) and the failure is reported: a limit never opens because Redis is away, and never refuses every
 * sign-in either.
 */
export class RedisLimitStore implements LimitStore {
  private readonly redis: RedisWithHit;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly fallback: LimitStore = new MemoryLimitStore(),
  ) {
    if (!('careplaneLimitHit' in redis)) {
      redis.defineCommand('careplaneLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    }
    this.redis = redis as RedisWithHit;
  }

  async hit(key: string, windowMs: number) {
    try {
      const [count, ttl] = await this.redis.careplaneLimitHit(`${this.prefix}${key}`, windowMs);
      return { count: Number(count), resetAt: Date.now() + Number(ttl) };
    } catch (error) {
      this.onError(error);
      return this.fallback.hit(key, windowMs);
    }
  }
}

export class TooManyRequests extends AppError {
  constructor(override readonly retryAfter: number) {
    super(429, serviceTexts.tooManyRequests);
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
