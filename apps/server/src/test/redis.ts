// The Redis the tests use (CI names it in REDIS_URL_TEST), and whether it answers: test files that need one
// skip with a warning on a machine without Redis, and fail instead when REDIS_URL_TEST names one that does not
// answer.
import { Redis } from 'ioredis';

export const REDIS_TEST_URL = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';

/** Whether a Redis answers at REDIS_TEST_URL; throws when REDIS_URL_TEST is set and none does. */
export async function testRedisAnswers(what: string): Promise<boolean> {
  const probe = new Redis(REDIS_TEST_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
  });
  probe.on('error', () => undefined);
  let available = false;
  try {
    await probe.connect();
    available = (await probe.ping()) === 'PONG';
  } catch {
    available = false;
  } finally {
    probe.disconnect();
  }
  if (!available && process.env.REDIS_URL_TEST) {
    throw new Error(`REDIS_URL_TEST is set but no Redis answers at ${REDIS_TEST_URL}`);
  }
  if (!available) console.warn(`${what} SKIPPED: no Redis answers at ${REDIS_TEST_URL} (set REDIS_URL_TEST)`);
  return available;
}
