// Command centers: the generic resource (the engine checks that its assigned users exist, as it does for
// every link list), and the care actions on a user (spec §7, decisions §7): an alert sent to the user, and a
// reboot of the user's devices.
import type {
  DeviceRebootRequested,
  UserAlert,
  UserAlertCreated,
} from '@careplane/shared/command-centers/command-centers.contract';
import type { ActionContext } from '@/lib/audit.js';
import { CARE_TEAM_ALERT_PURPOSE, CARE_TEAM_REBOOT_PURPOSE } from '@careplane/shared/devices/job-purposes';
import { conflict, notFound, serviceTexts } from '@/lib/errors.js';
import { createResourceService } from '@/lib/resources/service.js';
import type { Store, WriteScope } from '@/lib/store.js';
import { openAlerts, type AlertsService } from '@/modules/alerts/alerts.service.js';
import type { DevicesService } from '@/modules/devices/devices.service.js';
import { missingUserIds } from '@/modules/users/users.service.js';
import * as repository from './command-centers.repository.js';
import type { CenterSet } from './command-centers.repository.js';
import { commandCentersResource } from './command-centers.resource.js';

export function createCommandCentersService(
  store: Store,
  { devices, alerts: alertsService }: { devices: DevicesService; alerts: AlertsService },
) {
  const commandCenters = createResourceService(store, commandCentersResource);
  const { alerts } = alertsService;

  /**
   * The user's devices of the caller's centers, after checking that the user exists (404 otherwise): a doctor
   * of three centers has a device in each, and one center's care team acts on its own only.
   */
  async function userDevices(scope: WriteScope, userId: string, centers: CenterSet) {
    if ((await missingUserIds(scope.tx, [userId])).length) throw notFound('User');
    return repository.findUserDeviceIds(scope.tx, userId, centers);
  }

  /** One job per device, in the caller's write. */
  async function createJobs(scope: WriteScope, deviceIds: string[], purpose: string, command: string) {
    const ids: string[] = [];
    for (const device of deviceIds) {
      ids.push(await devices.jobs.createWithin(scope, { purpose, commands: [command], device }));
    }
    return ids;
  }

  const readJobs = (ids: string[]) => Promise.all(ids.map((id) => devices.jobs.read(id, { relations: [] })));

  /**
   * An active alert addressed to the user carrying the care team's message, and a `notify` job with that
   * message on each of the user's devices (maybe none), which the device agent shows.
   */
  async function alertUser(
    userId: string,
    { message }: UserAlert,
    context: ActionContext,
    centers: CenterSet,
  ): Promise<UserAlertCreated> {
    const created = await store.write(context, async (scope) => {
      const deviceIds = await userDevices(scope, userId, centers);
      const [alertId] = await openAlerts(scope, [
        {
          timestamp: Date.now(),
          data: { kind: 'manual', message },
          iotDeviceId: null,
          userId,
          // Sent by hand, like an alert opened from the admin screens.
          severity: 'warning',
        },
      ]);
      const jobIds = await createJobs(scope, deviceIds, CARE_TEAM_ALERT_PURPOSE, `notify ${message}`);
      return { alertId: alertId!, jobIds };
    });
    const [alert, jobs] = await Promise.all([
      alerts.read(created.alertId, { relations: [] }),
      readJobs(created.jobIds),
    ]);
    return { alert, jobs };
  }

  /**
   * A `reboot` job on each of the user's devices of the caller's centers; 409 when the user has none there, so
   * nothing happened.
   */
  async function rebootUserDevices(
    userId: string,
    context: ActionContext,
    centers: CenterSet,
  ): Promise<DeviceRebootRequested> {
    const jobIds = await store.write(context, async (scope) => {
      const deviceIds = await userDevices(scope, userId, centers);
      if (!deviceIds.length) {
        throw conflict(serviceTexts.nothingToReboot);
      }
      return createJobs(scope, deviceIds, CARE_TEAM_REBOOT_PURPOSE, 'reboot');
    });
    return { jobs: await readJobs(jobIds) };
  }

  return { commandCenters, alertUser, rebootUserDevices };
}

export type CommandCentersService = ReturnType<typeof createCommandCentersService>;
