// Which server processes take IoT readings from the same shared MQTT subscription right now, told by the
// database they share: each names the dedicated connection it listens for changes on (change-listener.ts) after
// its subscription, `careplane mqtt <group> <instance>`. A process that stops while another member is up leaves
// the subscription, so the broker gives the others its share; the last one keeps its sessions subscribed, so
// the broker queues the readings for its return (decision 075).
//
// A process that stops without leaving (killed, out of memory, its host lost) keeps its sessions subscribed at
// the broker, which goes on giving them their share of the readings while nobody takes it. Each member writes
// its client id stem and its sessions in `mqtt_members`; one whose presence has been gone for two checks in a
// row is claimed by one other member, which takes its sessions over: it stores what the broker queued for them
// and ends them (decision 098).
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '@/db/client.js';

const PREFIX = 'careplane mqtt';

/** How often a member says it is here and looks for members that stopped without leaving. */
export const MEMBERS_CHECK_MS = 10_000;

/** The name of this process's presence: the subscription (broker, group, topics) and this process. */
export function mqttPresenceName(settings: { url: string; shareGroup: string; topicPrefix: string }) {
  const group = createHash('sha256')
    .update(`${settings.url}\n${settings.shareGroup}\n${settings.topicPrefix}`)
    .digest('hex')
    .slice(0, 12);
  return `${PREFIX} ${group} ${randomUUID().slice(0, 8)}`;
}

/** `careplane mqtt <group>`: what every member of one subscription's presence starts with. */
const groupOf = (presence: string) => presence.split(' ').slice(0, 3).join(' ');

/**
 * How many other processes are connected to the database as members of this process's subscription. The
 * embedded database has one process only: none.
 */
export async function otherMqttMembers(database: DatabaseHandle, presence: string): Promise<number> {
  if (database.kind !== 'postgres') return 0;
  const { rows } = await database.rawQuery(
    `select count(distinct application_name)::int as members from pg_stat_activity
      where datname = current_database() and application_name like $1 and application_name <> $2`,
    [`${groupOf(presence)} %`, presence],
  );
  return (rows[0] as { members: number } | undefined)?.members ?? 0;
}

export interface MemberSettings {
  /** The broker client id stem of this process (MQTT_CLIENT_ID): its sessions are `<stem>-<i>`. */
  clientId: string;
  presence: string;
  connections: number;
}

/** Writes (or renews) this process's membership. */
export async function registerMqttMember(database: DatabaseHandle, member: MemberSettings) {
  await database.rawQuery(
    `insert into mqtt_members (client_id, presence, connections, seen_at) values ($1, $2, $3, now())
       on conflict (client_id) do update
         set presence = excluded.presence, connections = excluded.connections, seen_at = excluded.seen_at`,
    [member.clientId, member.presence, member.connections],
  );
}

/** This process left the subscription: nothing of it is left to take over. */
export async function forgetMqttMember(database: DatabaseHandle, clientId: string) {
  await database.rawQuery('delete from mqtt_members where client_id = $1', [clientId]);
}

interface StoppedMember {
  clientId: string;
  presence: string;
  connections: number;
}

/** Members of this process's subscription whose presence is gone. */
async function stoppedMembers(database: DatabaseHandle, self: MemberSettings): Promise<StoppedMember[]> {
  const { rows } = await database.rawQuery(
    `select client_id as "clientId", presence, connections from mqtt_members member
      where presence like $1 and client_id <> $2
        and not exists (select 1 from pg_stat_activity where application_name = member.presence)`,
    [`${groupOf(self.presence)} %`, self.clientId],
  );
  return rows as StoppedMember[];
}

/** Claims a stopped member for this process alone: false when another claimed it, or it came back. */
async function claim(database: DatabaseHandle, member: StoppedMember): Promise<boolean> {
  const { rows } = await database.rawQuery(
    'delete from mqtt_members where client_id = $1 and presence = $2 returning client_id',
    [member.clientId, member.presence],
  );
  return rows.length > 0;
}

/**
 * Says every `intervalMs` that this process is a member, and takes over the sessions of a member whose presence
 * has been gone at two checks in a row. PostgreSQL only: the embedded database has one process.
 */
export function watchMqttMembers(options: {
  database: DatabaseHandle;
  member: MemberSettings;
  takeOver: (stem: string, connections: number) => Promise<number>;
  log: FastifyBaseLogger;
  intervalMs?: number;
}) {
  const { database, member, log } = options;
  if (database.kind !== 'postgres') return { close: async () => {} };
  /** Stopped members seen at the last check, by client id and presence. */
  let suspected = new Set<string>();
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  async function check() {
    await registerMqttMember(database, member);
    const stopped = await stoppedMembers(database, member);
    const seen = new Set<string>();
    for (const other of stopped) {
      const key = `${other.clientId}\n${other.presence}`;
      seen.add(key);
      // A presence gone at one check may be a listener reconnecting; gone at two, the process has stopped.
      if (!suspected.has(key) || closed || !(await claim(database, other))) continue;
      log.warn(
        { clientId: other.clientId, sessions: other.connections },
        'a process stopped without leaving the MQTT subscription: taking over its sessions and their readings',
      );
      const ended = await options.takeOver(other.clientId, other.connections);
      log.info({ clientId: other.clientId, ended, sessions: other.connections }, 'MQTT sessions taken over');
    }
    suspected = seen;
  }

  const tick = () => {
    running = running
      .then(check)
      .catch((error: unknown) => log.warn({ err: error }, 'checking the MQTT members failed'));
  };
  tick();
  const timer = setInterval(tick, options.intervalMs ?? MEMBERS_CHECK_MS);
  timer.unref();
  return {
    /** Stops checking, once the check under way has finished. */
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
