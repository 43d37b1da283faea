// Client devices (per command center, plus home terminals of the best-equipped patients), their stats,
// the workstations that group them, and runner jobs in every status.
import type { DeviceRole, ProcessStatus } from '@careplane/shared/common/enums';
import { CARE_TEAM_REBOOT_PURPOSE } from '@careplane/shared/devices/job-purposes';
import { DAY, HISTORY, HOURLY_STATS_BEFORE, HOUR, MINUTE, buildDeviceStats } from '../demo-series.js';
import { regions, type Region } from '../reference-data.js';
import { bangkok, iso, type SeedContext } from './context.js';
import type { Organisations } from './organisations.js';
import { displayName, type Person, type Population } from './people.js';

interface DevicePlan {
  key: string;
  title: string;
  role: DeviceRole;
  region: Region | null;
  user: Person | null;
  enabled: boolean;
  /** How long ago the device was installed (its stats start then, at most a week back). */
  installedAgo: number;
  /** The device stopped reporting this long ago (0: reporting). */
  silentFor: number;
  busyness: number;
}

/**
 * Four devices per command center, a home terminal for each of the best-equipped patients (who also get the
 * full IoT kit, see iot.ts) and a spare tablet; a month of stats for the enabled ones (hourly before the last week).
 */
export function buildDevices(
  { id, ago, stamp, seedHash, adminId }: SeedContext,
  { commandCenters: commandCenterRows, centerOf }: Organisations,
  { named, withRole, nursesIn, patientsAll }: Population,
) {
  const devicePlans: DevicePlan[] = [];
  for (const region of regions) {
    const supervisor = region === bangkok ? named('supervisor') : withRole('supervisor', region)[0]!;
    const nurse = region === bangkok ? named('nurse') : nursesIn(region)[0]!;
    devicePlans.push(
      {
        key: `${region.key}-supervisor`,
        title: `${region.city} supervisor desk`,
        role: 'supervisor_workstation',
        region,
        user: supervisor,
        enabled: true,
        installedAgo: 300 * DAY,
        silentFor: 0,
        busyness: 0.5,
      },
      {
        key: `${region.key}-monitoring`,
        title: `${region.city} monitoring wall`,
        role: 'monitoring_workstation',
        region,
        user: null,
        enabled: true,
        installedAgo: 300 * DAY,
        silentFor: 0,
        busyness: 0.8,
      },
      {
        key: `${region.key}-screen`,
        title: `${region.city} lobby screen`,
        role: 'screen_workstation',
        region,
        user: null,
        enabled: true,
        installedAgo: region === bangkok ? 3 * DAY : 200 * DAY,
        silentFor: 0,
        busyness: 0.2,
      },
      {
        key: `${region.key}-station`,
        title: `${region.city} nurse station`,
        role: 'workstation',
        region,
        user: nurse,
        enabled: true,
        installedAgo: 280 * DAY,
        silentFor: 0,
        busyness: 0.6,
      },
    );
  }
  const equippedPatients = [
    named('patient'),
    ...patientsAll.filter((patient) => !patient.named && patient.status === 'enrolled').slice(0, 5),
  ];
  const bandOnlyPatients = patientsAll
    .filter((patient) => !patient.named && patient.status === 'enrolled')
    .slice(5);
  equippedPatients.forEach((patient, index) => {
    devicePlans.push({
      key: `terminal-${patient.key}`,
      title: `Home terminal of ${displayName(patient)}`,
      role: 'patient_terminal',
      region: patient.region,
      user: patient,
      enabled: true,
      installedAgo: (60 + index * 20) * DAY,
      // One terminal lost its connection this morning: an offline device in the lists.
      silentFor: index === 2 ? 5 * HOUR : 0,
      busyness: 0.15,
    });
  });
  devicePlans.push({
    key: 'spare-tablet',
    title: 'Spare tablet (not configured)',
    role: 'none',
    region: null,
    user: null,
    enabled: false,
    installedAgo: 10 * DAY,
    silentFor: 0,
    busyness: 0,
  });

  const deviceId = (key: string) => id('device', key);
  const deviceRows = devicePlans.map((plan) => {
    const center = commandCenterRows[regions.indexOf(plan.region ?? bangkok)]!;
    // Home terminals stand in the patient's home; every other device at its command center.
    const location =
      plan.role === 'patient_terminal' && plan.user
        ? { title: `Home of ${displayName(plan.user)}`, address: plan.user.address, geo: plan.user.geo }
        : { title: plan.title, address: center.address, geo: center.address.geo };
    return {
      id: deviceId(plan.key),
      title: plan.title,
      location,
      isEnabled: plan.enabled,
      role: plan.role,
      localRoles: [plan.role] as string[],
      assignedUserId: plan.user?.id ?? null,
      commandCenterId: plan.region ? centerOf(plan.region) : null,
      createdByUserId: adminId,
      ...stamp(plan.installedAgo),
    };
  });
  // A month of stats: every 15 minutes over the last week, hourly before it (HOURLY_STATS_BEFORE).
  const statRows = devicePlans
    .filter((plan) => plan.enabled)
    .flatMap((plan) => {
      const series = {
        deviceId: deviceId(plan.key),
        key: plan.key,
        role: plan.role,
        firmware: plan.role === 'patient_terminal' ? 'CP-T2 firmware 2.4.1' : 'CP-WS firmware 5.0.3',
        busyness: plan.busyness,
      };
      const start = Math.min(HISTORY, plan.installedAgo);
      const recent = Math.min(HOURLY_STATS_BEFORE, start);
      return [
        ...(start > recent
          ? buildDeviceStats(
              { ...series, from: ago(start), to: ago(Math.max(recent, plan.silentFor)), interval: HOUR },
              seedHash,
              id,
            )
          : []),
        ...buildDeviceStats({ ...series, from: ago(recent), to: ago(plan.silentFor) }, seedHash, id),
      ];
    });

  // Workstations: each nurse station groups the center's screens and home terminals.
  const workstationRows = regions.map((region) => ({
    id: id('workstation', region.key),
    title: `${region.city} nurse station`,
    deviceId: deviceId(`${region.key}-station`),
    createdByUserId: adminId,
    ...stamp(280 * DAY),
  }));
  const workstationDeviceRows = regions.flatMap((region) =>
    devicePlans
      .filter(
        (plan) =>
          plan.region === region &&
          (plan.role === 'patient_terminal' ||
            plan.role === 'monitoring_workstation' ||
            plan.role === 'screen_workstation'),
      )
      .map((plan) => ({ workstationId: id('workstation', region.key), deviceId: deviceId(plan.key) })),
  );
  const workstationPatientRows = patientsAll
    .filter((patient) => patient.status !== 'discharged')
    .map((patient) => ({ workstationId: id('workstation', patient.region.key), userId: patient.id }));
  return {
    equippedPatients,
    bandOnlyPatients,
    deviceId,
    devices: deviceRows,
    deviceStats: statRows,
    workstations: workstationRows,
    workstationDevices: workstationDeviceRows,
    workstationPatients: workstationPatientRows,
  };
}

export type Devices = ReturnType<typeof buildDevices>;

// Runner jobs in every status; finished ones carry results.
interface JobPlan {
  device: string;
  status: ProcessStatus;
  commands: string[];
  purpose?: string;
  agoMs: number;
  by: Person;
  failOn?: string;
}

function outputFor(command: string, failed: boolean) {
  if (failed) {
    return command.startsWith('ping')
      ? {
          exitCode: 1,
          stdout: `PING ${command.slice(5)}: 3 packets transmitted, 0 received, 100% packet loss\n`,
          stderr: '',
        }
      : { exitCode: 2, stdout: '', stderr: 'collect-logs: /var/log/careplane: No space left on device\n' };
  }
  if (command.startsWith('ping')) {
    return {
      exitCode: 0,
      stdout: `PING ${command.slice(5)}: 3 packets transmitted, 3 received, 0% packet loss, rtt avg 18.4 ms\n`,
      stderr: '',
    };
  }
  if (command === 'collect-logs')
    return {
      exitCode: 0,
      stdout: 'Collected 14 log files (2.3 MB) into careplane-logs.tar.gz\n',
      stderr: '',
    };
  if (command === 'reboot') return { exitCode: 0, stdout: 'Rebooting now\n', stderr: '' };
  if (command === 'restart-agent') return { exitCode: 0, stdout: 'careplane-agent restarted\n', stderr: '' };
  return { exitCode: 0, stdout: 'Notification shown\n', stderr: '' };
}

export function buildDeviceJobs(
  { id, ago, anchor }: SeedContext,
  { named }: Population,
  { equippedPatients, deviceId }: Devices,
) {
  const supervisor = named('supervisor');
  const nurse = named('nurse');
  const admin = named('admin');
  const jobPlans: JobPlan[] = [
    {
      device: 'bangkok-monitoring',
      status: 'NEW',
      commands: ['restart-agent'],
      purpose: 'Apply the new agent configuration',
      agoMs: -2 * HOUR,
      by: admin,
    },
    {
      device: `terminal-${equippedPatients[1]!.key}`,
      status: 'NEW',
      commands: ['notify Please measure your blood pressure now'],
      purpose: 'Measurement reminder',
      agoMs: 5 * MINUTE,
      by: nurse,
    },
    {
      device: 'chiang-mai-station',
      status: 'NEW',
      commands: ['collect-logs'],
      agoMs: 15 * MINUTE,
      by: admin,
    },
    {
      device: 'bangkok-supervisor',
      status: 'ACCEPTED',
      commands: ['ping 8.8.8.8'],
      purpose: 'Network check',
      agoMs: 10 * MINUTE,
      by: supervisor,
    },
    {
      device: 'phuket-screen',
      status: 'ACCEPTED',
      commands: ['reboot'],
      purpose: 'Screen frozen',
      agoMs: 20 * MINUTE,
      by: admin,
    },
    {
      device: 'bangkok-station',
      status: 'RUNNING',
      commands: ['collect-logs', 'restart-agent'],
      purpose: 'Investigate slow start-up',
      agoMs: 4 * MINUTE,
      by: admin,
    },
    {
      device: `terminal-${named('patient').key}`,
      status: 'RUNNING',
      commands: ['ping careplane.local'],
      agoMs: 2 * MINUTE,
      by: supervisor,
    },
    {
      device: `terminal-${named('patient').key}`,
      status: 'SUCCEEDED',
      commands: ['reboot'],
      purpose: CARE_TEAM_REBOOT_PURPOSE,
      agoMs: 26 * HOUR,
      by: supervisor,
    },
    {
      device: 'bangkok-monitoring',
      status: 'SUCCEEDED',
      commands: ['collect-logs'],
      agoMs: 2 * DAY,
      by: admin,
    },
    {
      device: 'chiang-mai-monitoring',
      status: 'SUCCEEDED',
      commands: ['ping 1.1.1.1', 'notify Network maintenance tonight at 22:00'],
      purpose: 'Maintenance notice',
      agoMs: 3 * DAY,
      by: admin,
    },
    {
      device: `terminal-${equippedPatients[2]!.key}`,
      status: 'SUCCEEDED',
      commands: ['notify Your nurse will visit at 14:00'],
      purpose: 'Visit reminder',
      agoMs: 4 * DAY,
      by: nurse,
    },
    { device: 'phuket-station', status: 'SUCCEEDED', commands: ['restart-agent'], agoMs: 5 * DAY, by: admin },
    {
      device: `terminal-${equippedPatients[2]!.key}`,
      status: 'FAILED',
      commands: ['ping 8.8.8.8', 'collect-logs'],
      purpose: 'Connection check',
      agoMs: 6 * HOUR,
      by: supervisor,
      failOn: 'ping 8.8.8.8',
    },
    {
      device: 'phuket-supervisor',
      status: 'FAILED',
      commands: ['collect-logs'],
      agoMs: 2 * DAY + 3 * HOUR,
      by: admin,
      failOn: 'collect-logs',
    },
    {
      device: 'bangkok-screen',
      status: 'CANCELLED',
      commands: ['reboot'],
      purpose: 'Reboot before the morning shift',
      agoMs: DAY,
      by: admin,
    },
    {
      device: 'chiang-mai-supervisor',
      status: 'CANCELLED',
      commands: ['notify Shift handover in 10 minutes'],
      agoMs: 3 * DAY + 4 * HOUR,
      by: supervisor,
    },
    // Accepted, then the device went silent past its lease (decision 025).
    {
      device: 'phuket-station',
      status: 'TIMED_OUT',
      commands: ['collect-logs'],
      purpose: 'Logs after the power cut',
      agoMs: 4 * DAY,
      by: nurse,
    },
  ];
  return jobPlans.map((plan, index) => {
    const created = ago(Math.max(plan.agoMs, 0) + MINUTE);
    const notBefore = ago(plan.agoMs);
    const results: Record<string, unknown>[] = [];
    let clock = Math.max(notBefore, created) + 20_000;
    const finished = plan.status === 'SUCCEEDED' || plan.status === 'FAILED';
    const ran = finished
      ? plan.commands
      : plan.status === 'RUNNING'
        ? plan.commands.slice(0, plan.commands.length - 1)
        : [];
    for (const command of ran) {
      const failed = plan.failOn === command;
      const output = outputFor(command, failed);
      const startedAt = clock;
      clock += 3_000 + (index % 5) * 1_000;
      results.push({ command, ...output, startedAt: iso(startedAt), finishedAt: iso(clock) });
      if (failed) break;
    }
    return {
      id: id('job', index),
      purpose: plan.purpose ?? 'No purpose provided.',
      commands: plan.commands,
      results,
      status: plan.status,
      notBefore: new Date(notBefore),
      deviceId: deviceId(plan.device),
      createdByUserId: plan.by.id,
      createdAt: new Date(created),
      updatedAt: new Date(finished || plan.status !== 'NEW' ? Math.min(clock, anchor) : created),
    };
  });
}
