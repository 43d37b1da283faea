// Who else takes readings from the shared MQTT subscription, as the database tells it: the processes whose
// change listener carries a presence of the same subscription. A process that stops leaves the subscription
// only when another member is up (decision 075). Two "processes" here are two listeners on one database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForRemoteChanges, type ChangeListenerHandle } from '@/lib/change-listener.js';
import { createChangeFeed } from '@/lib/changes.js';
import { createTestDatabase, type TestDatabase } from '@/test/harness.js';
import { mqttPresenceName, otherMqttMembers } from './mqtt-members.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const subscription = { url: 'mqtt://127.0.0.1:1883', shareGroup: 'careplane', topicPrefix: 'careplane/iot' };

/** A process's listener, up once its presence can be seen. */
function listening(presence: string): ChangeListenerHandle {
  return listenForRemoteChanges(database.handle, createChangeFeed(), () => undefined, { presence });
}

describe.skipIf(!process.env.DATABASE_URL_TEST)('other MQTT members, on PostgreSQL', () => {
  it('counts the processes of the same subscription that are up, not this one nor another subscription', async () => {
    const one = mqttPresenceName(subscription);
    const two = mqttPresenceName(subscription);
    const elsewhere = mqttPresenceName({ ...subscription, shareGroup: 'another-deployment' });
    expect(one).not.toBe(two);
    const listeners = [listening(one), listening(two), listening(elsewhere)];
    try {
      await expect.poll(() => otherMqttMembers(database.handle, one)).toBe(1);
      expect(await otherMqttMembers(database.handle, two)).toBe(1);
      expect(await otherMqttMembers(database.handle, elsewhere)).toBe(0);
      // Stopped, a process no longer counts: the last one up keeps its sessions subscribed.
      await listeners[1]!.close();
      await expect.poll(() => otherMqttMembers(database.handle, one)).toBe(0);
    } finally {
      await Promise.all(listeners.map((listener) => listener.close()));
    }
  });
});

describe('other MQTT members, on the embedded database', () => {
  it('are none: it has one process', async () => {
    const handle = { ...database.handle, kind: 'pglite' as const };
    expect(await otherMqttMembers(handle, mqttPresenceName(subscription))).toBe(0);
  });
});
