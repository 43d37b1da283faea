// Which server processes take IoT readings from the same shared MQTT subscription right now, told by the
// database they share: each names the dedicated connection it listens for changes on (change-listener.ts) after
// its subscription, `careplane mqtt <group> <instance>`. A process that stops while another member is up leaves
// the subscription, so the broker gives the others its share; the last one keeps its sessions subscribed, so
// the broker queues the readings for its return (decision 075).
import { createHash, randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '@/db/client.js';

const PREFIX = 'careplane mqtt';

/** The name of this process's presence: the subscription (broker, group, topics) and this process. */
export function mqttPresenceName(settings: { url: string; shareGroup: string; topicPrefix: string }) {
  const group = createHash('sha256')
    .update(`${settings.url}\n${settings.shareGroup}\n${settings.topicPrefix}`)
    .digest('hex')
    .slice(0, 12);
  return `${PREFIX} ${group} ${randomUUID().slice(0, 8)}`;
}

/**
 * How many other processes are connected to the database as members of this process's subscription. The
 * embedded database has one process only: none.
 */
export async function otherMqttMembers(database: DatabaseHandle, presence: string): Promise<number> {
  if (database.kind !== 'postgres') return 0;
  const group = presence.split(' ').slice(0, 3).join(' ');
  const { rows } = await database.rawQuery(
    `select count(distinct application_name)::int as members from pg_stat_activity
      where datname = current_database() and application_name like $1 and application_name <> $2`,
    [`${group} %`, presence],
  );
  return (rows[0] as { members: number } | undefined)?.members ?? 0;
}
