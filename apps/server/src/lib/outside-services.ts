// The services beside the database that a process uses when it is configured to: Redis (sign-in limits shared
// by every process, REDIS_URL) and the MQTT broker (readings, MQTT_URL). The metrics say how each is now.
// Neither is needed to serve (decision 075), so neither is part of readiness, which anyone may read: it does
// not tell the world when the sign-in limits go uncounted.
import type { Redis } from 'ioredis';

export type OutsideState = 'up' | 'down';

export interface OutsideServices {
  /** The sign-in limits' Redis connection; null without REDIS_URL (or without the auth server here). */
  redis: Pick<Redis, 'status'> | null;
  /** The MQTT ingestion's connections to the broker; null without MQTT_URL. */
  broker: { connections(): { subscribed: number; total: number } } | null;
}

/** Redis is up when its connection is ready for commands; the broker when a connection takes readings. */
export function outsideStates(outside: OutsideServices): { redis?: OutsideState; broker?: OutsideState } {
  return {
    ...(outside.redis ? { redis: outside.redis.status === 'ready' ? 'up' : 'down' } : {}),
    ...(outside.broker ? { broker: outside.broker.connections().subscribed > 0 ? 'up' : 'down' } : {}),
  };
}
