// The command-center scoped reads (spec §7, decisions §4): a supervisor (a user assigned to a command center)
// reads the devices, workstations, users, stats, jobs, alerts, IoT devices and readings (decision 102) of their
// own centers through the generic engine, narrowed by a record scope; records of other centers answer 404 as if
// they did not exist. Admins read every center, or the one they name.
import {
  commandCenterScopedRelations,
  commandCenterTeamRoles,
  type CommandCenterScopedListQuery,
  type CommandCenterScopedReadQuery,
} from '@careplane/shared/command-centers/command-centers.contract';
import type { SQL } from 'drizzle-orm';
import type { ListResponse } from '@careplane/shared/common/http';
import type { Caller } from '@/lib/caller.js';
import { badRequest, forbidden, notFound, serviceTexts } from '@/lib/errors.js';
import type { ListPage } from '@/lib/resources/repository.js';
import { createResourceService, type ListAnswer } from '@/lib/resources/service.js';
import { WrittenAnswer } from '@/lib/response-serializer.js';
import type { Store } from '@/lib/store.js';
import {
  deviceJobsResource,
  deviceStatsResource,
  devicesResource,
  workstationsResource,
} from '@/modules/devices/devices.resource.js';
import { usersResource } from '@/modules/users/users.resource.js';
import { alertsResource } from '@/modules/alerts/alerts.resource.js';
import { iotDataResource, iotDevicesResource } from '@/modules/iot/iot.resource.js';
import * as repository from './command-centers.repository.js';
import type { CenterSet } from './command-centers.repository.js';

/** Every center (an admin who named none), or these. */
export type { CenterSet };
type Kind = keyof typeof commandCenterScopedRelations;

export function createCommandCenterScopeService(store: Store) {
  const { db } = store;
  // The engine asks a resource's scope of the caller it is handed; each call hands a viewer of its own, made
  // for that call, that carries the centers it may see.
  const centersOfViewer = new WeakMap<Caller, CenterSet | 'unassigned'>();
  const scoped = <K extends Kind>(kind: K) => ({
    scope: (caller: Caller | null) => {
      const centers = caller ? centersOfViewer.get(caller) : undefined;
      if (centers === undefined) return repository.scopes.none(); // no viewer: nothing
      if (centers === 'unassigned') return repository.scopes.unassignedUsers();
      if (centers === 'all') return undefined;
      return repository.scopes[kind](centers);
    },
  });
  const devices = createResourceService(store, devicesResource, scoped('devices'));
  const workstations = createResourceService(store, workstationsResource, scoped('workstations'));
  const users = createResourceService(store, usersResource, scoped('users'));
  const stats = createResourceService(store, deviceStatsResource, scoped('stats'));
  const jobs = createResourceService(store, deviceJobsResource, scoped('jobs'));
  const alerts = createResourceService(store, alertsResource, scoped('alerts'));
  const iotDevices = createResourceService(store, iotDevicesResource, scoped('iotDevices'));
  const readings = createResourceService(store, iotDataResource, scoped('readings'));

  /**
   * The centers a caller supervises: those they are assigned to, when they are of a center's care team. Anyone
   * else may not use the scoped calls (403).
   */
  async function supervisedCenters(caller: Caller): Promise<CenterSet> {
    if (caller.isAdmin) return 'all';
    const team = caller.localRoles.some((role) =>
      (commandCenterTeamRoles as readonly string[]).includes(role),
    );
    const own = team && caller.userId ? await repository.findCenterIdsOfUser(db, caller.userId) : [];
    if (!own.length) throw forbidden(serviceTexts.careTeamOnly);
    return own;
  }

  /** The centers of one call: the caller's, or the one they name (404 when it is not theirs to read). */
  async function centersOf(caller: Caller, named: string | undefined): Promise<CenterSet> {
    const supervised = await supervisedCenters(caller);
    if (named === undefined) return supervised;
    const visible =
      supervised === 'all' ? await repository.commandCenterExists(db, named) : supervised.includes(named);
    if (!visible) throw notFound('Command center');
    return [named];
  }

  const viewer = (caller: Caller, centers: CenterSet | 'unassigned'): Caller => {
    const made = { ...caller };
    centersOfViewer.set(made, centers);
    return made;
  };

  /** Supervisors embed only relations that stay inside their centers' records. */
  function checkRelations(caller: Caller, kind: Kind, relations: readonly string[]) {
    if (caller.isAdmin) return;
    const allowed: readonly string[] = commandCenterScopedRelations[kind];
    const asked = relations.flatMap((value) => value.split(',')).filter(Boolean);
    const refused = asked.filter((relation) => !allowed.includes(relation));
    if (refused.length) {
      throw badRequest(serviceTexts.relationsNotHere(refused), [
        { path: 'relations', message: allowed.length ? `One of ${allowed.join(', ')}` : 'None here' },
      ]);
    }
  }

  /**
   * The embedded lists of a center's records that can lead to another center's: a patient may have a device, or
   * a place at a workstation, in two centers. The care team of one reads those of its own centers only.
   */
  const leaving: Partial<Record<Kind, Record<string, 'devices' | 'workstations'>>> = {
    users: { assignedDevices: 'devices', assignedToWorkstations: 'workstations' },
  };
  const leavingAsked = (kind: Kind, relations: readonly string[]) => {
    const own = leaving[kind] ?? {};
    return relations
      .flatMap((value) => value.split(','))
      .filter((name) => Object.hasOwn(own, name))
      .map((name) => [name, own[name]!] as const);
  };

  /** Drops from each item's embedded lists the records outside the centers. */
  async function keepToCenters(
    kind: Kind,
    relations: readonly string[],
    centers: readonly string[],
    items: readonly Record<string, unknown>[],
  ): Promise<void> {
    for (const [name, target] of leavingAsked(kind, relations)) {
      const embedded = (item: Record<string, unknown>) =>
        Array.isArray(item[name]) ? (item[name] as { id: string }[]) : [];
      const ids = [...new Set(items.flatMap((item) => embedded(item).map((record) => record.id)))];
      const kept = await repository.idsWithinCenters(db, target, ids, centers);
      for (const item of items) {
        if (Array.isArray(item[name])) item[name] = embedded(item).filter((record) => kept.has(record.id));
      }
    }
  }

  /** A scoped list as the route answers it: written by the database when it can be (decision 058). */
  async function listOf<Item>(
    kind: Kind,
    service: { listAnswer: (page: ListPage, caller: Caller | null) => Promise<ListAnswer<Item>> },
    caller: Caller,
    query: CommandCenterScopedListQuery,
    centersOfList?: (caller: Caller, named: string | undefined) => Promise<CenterSet | 'unassigned'>,
  ): Promise<ListAnswer<Item>> {
    checkRelations(caller, kind, query.relations);
    const { commandCenter, ...page } = query;
    const centers = await (centersOfList ?? centersOf)(caller, commandCenter);
    const answer = await service.listAnswer(page, viewer(caller, centers));
    if (caller.isAdmin || leavingAsked(kind, query.relations).length === 0) return answer;
    // A page with such a list is read back and narrowed: the care team's pages are short, and rare.
    const read = answer instanceof WrittenAnswer ? (JSON.parse(answer.text) as ListResponse<Item>) : answer;
    const own = centers === 'unassigned' ? await supervisedCenters(caller) : centers;
    if (own !== 'all')
      await keepToCenters(kind, query.relations, own, read.items as Record<string, unknown>[]);
    return read;
  }

  async function readOf<Item>(
    kind: Kind,
    service: {
      read: (id: string, options: { relations: readonly string[] }, caller?: Caller | null) => Promise<Item>;
    },
    caller: Caller,
    id: string,
    query: CommandCenterScopedReadQuery,
  ): Promise<Item> {
    checkRelations(caller, kind, query.relations);
    const centers = await centersOf(caller, query.commandCenter);
    const item = await service.read(id, { relations: query.relations }, viewer(caller, centers));
    if (!caller.isAdmin && centers !== 'all')
      await keepToCenters(kind, query.relations, centers, [item as Record<string, unknown>]);
    return item;
  }

  return {
    supervisedCenters,
    listDevices: (caller: Caller, query: CommandCenterScopedListQuery) =>
      listOf('devices', devices, caller, query),
    listWorkstations: (caller: Caller, query: CommandCenterScopedListQuery) =>
      listOf('workstations', workstations, caller, query),
    listUsers: (caller: Caller, query: CommandCenterScopedListQuery) => listOf('users', users, caller, query),
    /** Users that belong to no command center: the ones a supervisor may take into care. */
    async listUnassignedUsers(caller: Caller, query: CommandCenterScopedListQuery) {
      // Users of no center are nobody's: the center named, if any, does not narrow them.
      return listOf('users', users, caller, query, async () => {
        await supervisedCenters(caller);
        return 'unassigned';
      });
    },
    readUser: (caller: Caller, id: string, query: CommandCenterScopedReadQuery) =>
      readOf('users', users, caller, id, query),
    listJobs: (caller: Caller, query: CommandCenterScopedListQuery) => listOf('jobs', jobs, caller, query),
    listAlerts: (caller: Caller, query: CommandCenterScopedListQuery) =>
      listOf('alerts', alerts, caller, query),
    readJob: (caller: Caller, id: string, query: CommandCenterScopedReadQuery) =>
      readOf('jobs', jobs, caller, id, query),
    listIotDevices: (caller: Caller, query: CommandCenterScopedListQuery) =>
      listOf('iotDevices', iotDevices, caller, query),
    listReadings: (caller: Caller, query: CommandCenterScopedListQuery) =>
      listOf('readings', readings, caller, query),
    /**
     * Whether an IoT device belongs to the caller's centers (to sum up its readings); 404 otherwise. Answers
     * the condition of the readings the caller may sum up (none for an admin): a device's readings from
     * before it was given to a patient of theirs are another person's (decision 109).
     */
    async assertIotDeviceInScope(caller: Caller, iotDeviceId: string): Promise<SQL | undefined> {
      const centers = await centersOf(caller, undefined);
      await iotDevices.read(iotDeviceId, { relations: [] }, viewer(caller, centers));
      return centers === 'all' ? undefined : repository.scopes.readings(centers);
    },
    /** A device's stats, newest first; 404 when the device is not in the caller's centers. */
    async listDeviceStats(caller: Caller, deviceId: string, query: CommandCenterScopedListQuery) {
      checkRelations(caller, 'stats', query.relations);
      const { commandCenter, ...page } = query;
      const centers = await centersOf(caller, commandCenter);
      await devices.read(deviceId, { relations: [] }, viewer(caller, centers));
      return stats.listAnswer(
        { ...page, filters: [...page.filters, `device.id~${deviceId}`] },
        viewer(caller, centers),
      );
    },
    /** Whether an alert belongs to the caller's centers (to acknowledge or close it); 404 otherwise. */
    async assertAlertInScope(caller: Caller, alertId: string) {
      const centers = await centersOf(caller, undefined);
      await alerts.read(alertId, { relations: [] }, viewer(caller, centers));
    },
    /**
     * Whether a user is in the caller's centers (for actions on a user's care); 404 otherwise. Answers the
     * caller's centers, which the action keeps to.
     */
    async assertUserInScope(caller: Caller, userId: string): Promise<CenterSet> {
      const centers = await centersOf(caller, undefined);
      await users.read(userId, { relations: [] }, viewer(caller, centers));
      return centers;
    },
  };
}

export type CommandCenterScopeService = ReturnType<typeof createCommandCenterScopeService>;
