import { describe, expect, it } from 'vitest';
import { processStatuses, type ProcessStatus } from '../common/enums.ts';
import {
  MAX_JOB_OUTPUT,
  canTransitionJob,
  deviceCreateSchema,
  deviceJobSubmissionSchema,
  deviceJobUpdateSchema,
  deviceStatCreateSchema,
  deviceStatSubmissionSchema,
  deviceStatsQuerySchema,
  deviceTokenSchema,
  deviceUpdateSchema,
  isFinishedJobStatus,
  workstationCreateSchema,
  workstationPatientSchema,
  workstationUpdateSchema,
} from './devices.contract.ts';
import { sampleStatSubmission } from './devices.fixtures.ts';

/** A copy of `value` without `keys`. */
const omit = <T extends object, K extends keyof T>(value: T, ...keys: K[]) =>
  Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key as K))) as Omit<T, K>;

const DEVICE_ID = '0190f6a2-6d3b-7c8e-9f00-000000000001';
const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => issue.path.join('.')) ?? [];

describe('device status submission (spec §5)', () => {
  it('accepts the full structure and leaves bootTime and software optional', () => {
    expect(deviceStatSubmissionSchema.safeParse(sampleStatSubmission()).success).toBe(true);
    const minimal = omit(sampleStatSubmission(), 'bootTime', 'software');
    expect(deviceStatSubmissionSchema.safeParse(minimal).success).toBe(true);
  });

  it.each(['firmware', 'network', 'system', 'hardware'] as const)('requires %s', (field) => {
    const stat: Record<string, unknown> = sampleStatSubmission();
    delete stat[field];
    const result = deviceStatSubmissionSchema.safeParse(stat);
    expect(result.success).toBe(false);
    expect(issuesOf(result)).toContain(field);
  });

  it('refuses a non-numeric bootTime, unknown fields and a blank firmware', () => {
    expect(deviceStatSubmissionSchema.safeParse({ ...sampleStatSubmission(), bootTime: '1' }).success).toBe(
      false,
    );
    expect(deviceStatSubmissionSchema.safeParse({ ...sampleStatSubmission(), extra: 1 }).success).toBe(false);
    expect(deviceStatSubmissionSchema.safeParse({ ...sampleStatSubmission(), firmware: '  ' }).success).toBe(
      false,
    );
    // The device does not choose its time or its device: those belong to the create of an admin.
    expect(
      deviceStatSubmissionSchema.safeParse({ ...sampleStatSubmission(), timestamp: 1, device: DEVICE_ID })
        .success,
    ).toBe(false);
  });

  it('checks the network interface structure: name, mac, type, active, ip4/ip6 {ip, extIp, gateway, dns}', () => {
    const stat = sampleStatSubmission();
    const [eth0] = stat.network;
    const withInterface = (value: unknown) =>
      deviceStatSubmissionSchema.safeParse({ ...stat, network: [value] });
    expect(withInterface({ ...eth0, ip6: null }).success).toBe(true);
    expect(withInterface({ ...eth0, active: 'yes' }).success).toBe(false);
    expect(withInterface({ ...eth0, ip4: { ip: '10.0.0.1' } }).success).toBe(false);
    expect(withInterface({ ...eth0, ip4: { ...eth0!.ip4, mask: '255.0.0.0' } }).success).toBe(false);
    const withoutMac = omit(eth0!, 'mac');
    expect(withInterface(withoutMac).success).toBe(false);
    expect(
      deviceStatSubmissionSchema.safeParse({ ...stat, network: Array.from({ length: 65 }, () => eth0) })
        .success,
    ).toBe(false);
  });

  it('checks system and hardware: usage in percent, used in bytes, loadAverage user/wait/system', () => {
    const stat = sampleStatSubmission();
    const withSystem = (system: unknown) => deviceStatSubmissionSchema.safeParse({ ...stat, system });
    expect(withSystem({ ...stat.system, cpu: { usage: 101, used: 1 } }).success).toBe(false);
    expect(withSystem({ ...stat.system, memory: { usage: 5, used: -1 } }).success).toBe(false);
    expect(withSystem({ ...stat.system, loadAverage: { user: 1, wait: 1 } }).success).toBe(false);
    const withoutSwap = omit(stat.system, 'swap');
    expect(withSystem(withoutSwap).success).toBe(false);
    const withHardware = (hardware: unknown) => deviceStatSubmissionSchema.safeParse({ ...stat, hardware });
    expect(withHardware({ ...stat.hardware, cpu: 'ARM' }).success).toBe(false);
    expect(withHardware({ cpu: [], memory: { total: 1 }, disks: [] }).success).toBe(true);
    expect(withHardware({ cpu: [], memory: { total: 1 } }).success).toBe(false);
    expect(deviceStatSubmissionSchema.safeParse({ ...stat, software: { system: 'x' } }).success).toBe(false);
  });

  it('refuses NUL characters and oversized text', () => {
    const stat = sampleStatSubmission();
    expect(deviceStatSubmissionSchema.safeParse({ ...stat, firmware: 'a\u0000b' }).success).toBe(false);
    expect(deviceStatSubmissionSchema.safeParse({ ...stat, firmware: 'x'.repeat(256) }).success).toBe(false);
  });
});

describe('device stat create (spec §5)', () => {
  const full = () => ({ ...sampleStatSubmission(), timestamp: 1_700_000_500_000, device: DEVICE_ID });

  it('adds required timestamp, bootTime and device', () => {
    expect(deviceStatCreateSchema.safeParse(full()).success).toBe(true);
    for (const field of ['timestamp', 'bootTime', 'device'] as const) {
      const stat: Record<string, unknown> = full();
      delete stat[field];
      const result = deviceStatCreateSchema.safeParse(stat);
      expect(result.success, field).toBe(false);
      expect(issuesOf(result)).toContain(field);
    }
    expect(deviceStatCreateSchema.safeParse({ ...full(), device: 'not-a-uuid' }).success).toBe(false);
    expect(deviceStatCreateSchema.safeParse({ ...full(), timestamp: 1.5 }).success).toBe(false);
  });
});

describe('device stats list query', () => {
  it('defaults limit to 5 and accepts comma-separated timestamps', () => {
    expect(deviceStatsQuerySchema.parse({})).toMatchObject({ limit: 5, offset: 0, filters: [] });
    expect(deviceStatsQuerySchema.parse({ limit: '50' }).limit).toBe(50);
    expect(deviceStatsQuerySchema.parse({ timestamps: '1,2,3' }).timestamps).toBe('1,2,3');
    for (const timestamps of ['', 'a', '1,,2', '1.5', '-1', '1,']) {
      expect(deviceStatsQuerySchema.safeParse({ timestamps }).success, timestamps).toBe(false);
    }
    const many = Array.from({ length: 201 }, (_, index) => index).join(',');
    expect(deviceStatsQuerySchema.safeParse({ timestamps: many }).success).toBe(false);
  });
});

describe('runner job submission and update (spec §5)', () => {
  const submission = { purpose: 'Weekly restart', commands: ['reboot'], device: DEVICE_ID };

  it('requires purpose, commands and device; notBefore is optional', () => {
    expect(deviceJobSubmissionSchema.safeParse(submission).success).toBe(true);
    expect(
      deviceJobSubmissionSchema.safeParse({ ...submission, notBefore: '2030-01-01T08:00:00.000Z' }).success,
    ).toBe(true);
    for (const field of ['purpose', 'commands', 'device'] as const) {
      const body: Record<string, unknown> = { ...submission };
      delete body[field];
      expect(deviceJobSubmissionSchema.safeParse(body).success, field).toBe(false);
    }
  });

  it('refuses empty or oversized commands, bad dates and fields the server sets', () => {
    expect(deviceJobSubmissionSchema.safeParse({ ...submission, commands: [] }).success).toBe(false);
    expect(deviceJobSubmissionSchema.safeParse({ ...submission, commands: [' '] }).success).toBe(false);
    expect(
      deviceJobSubmissionSchema.safeParse({ ...submission, commands: Array(51).fill('reboot') }).success,
    ).toBe(false);
    expect(deviceJobSubmissionSchema.safeParse({ ...submission, notBefore: 'tomorrow' }).success).toBe(false);
    expect(deviceJobSubmissionSchema.safeParse({ ...submission, status: 'RUNNING' }).success).toBe(false);
    expect(deviceJobSubmissionSchema.safeParse({ ...submission, createdByUser: DEVICE_ID }).success).toBe(
      false,
    );
  });

  it('update requires status, results are optional and bounded', () => {
    const result = {
      command: 'reboot',
      exitCode: 0,
      stdout: 'ok',
      stderr: '',
      startedAt: '2030-01-01T08:00:00Z',
      finishedAt: '2030-01-01T08:00:02Z',
    };
    expect(deviceJobUpdateSchema.safeParse({ status: 'RUNNING' }).success).toBe(true);
    expect(deviceJobUpdateSchema.safeParse({ status: 'SUCCEEDED', results: [result] }).success).toBe(true);
    expect(deviceJobUpdateSchema.safeParse({ results: [result] }).success).toBe(false);
    expect(deviceJobUpdateSchema.safeParse({ status: 'DONE' }).success).toBe(false);
    expect(deviceJobUpdateSchema.safeParse({ status: 'NEW', purpose: 'x' }).success).toBe(false);
    expect(
      deviceJobUpdateSchema.safeParse({
        status: 'FAILED',
        results: [{ ...result, stdout: 'x'.repeat(MAX_JOB_OUTPUT + 1) }],
      }).success,
    ).toBe(false);
    const withoutStderr = omit(result, 'stderr');
    expect(deviceJobUpdateSchema.safeParse({ status: 'FAILED', results: [withoutStderr] }).success).toBe(
      false,
    );
    expect(
      deviceJobUpdateSchema.safeParse({ status: 'FAILED', results: [{ ...result, exitCode: null }] }).success,
    ).toBe(true);
    // A command that finished before it started: a wrong clock or a typo.
    const backwards = deviceJobUpdateSchema.safeParse({
      status: 'SUCCEEDED',
      results: [{ ...result, finishedAt: '2030-01-01T07:59:59Z' }],
    });
    expect(backwards.error?.issues).toMatchObject([
      { path: ['results', 0, 'finishedAt'], message: 'Must not be before startedAt' },
    ]);
  });

  it('allows exactly the transitions of decisions §7 and the time-out of decision 025', () => {
    const allowed = new Set([
      'NEW>ACCEPTED',
      'NEW>CANCELLED',
      'ACCEPTED>RUNNING',
      'ACCEPTED>CANCELLED',
      'ACCEPTED>TIMED_OUT',
      'RUNNING>RUNNING',
      'RUNNING>SUCCEEDED',
      'RUNNING>FAILED',
      'RUNNING>TIMED_OUT',
    ]);
    for (const from of processStatuses) {
      for (const to of processStatuses) {
        expect(canTransitionJob(from, to), `${from}>${to}`).toBe(allowed.has(`${from}>${to}`));
      }
    }
    const finished: ProcessStatus[] = ['SUCCEEDED', 'FAILED', 'CANCELLED', 'TIMED_OUT'];
    expect(processStatuses.filter(isFinishedJobStatus)).toEqual(finished);
  });
});

describe('client devices and workstations', () => {
  it('device create requires a title; roles come from the device role list', () => {
    expect(deviceCreateSchema.safeParse({ title: 'Ward 3 tablet' }).success).toBe(true);
    expect(deviceCreateSchema.safeParse({}).success).toBe(false);
    expect(deviceCreateSchema.safeParse({ title: 'x', role: 'admin' }).success).toBe(false);
    expect(deviceCreateSchema.safeParse({ title: 'x', localRoles: ['nurse'] }).success).toBe(false);
    expect(deviceCreateSchema.safeParse({ title: 'x', localRoles: [] }).success).toBe(false);
    expect(deviceCreateSchema.safeParse({ title: 'x', tokenHash: 'abc' }).success).toBe(false);
    expect(deviceCreateSchema.safeParse({ title: 'x', iotDevices: ['nope'] }).success).toBe(false);
    expect(deviceUpdateSchema.safeParse({}).success).toBe(true);
    expect(deviceUpdateSchema.safeParse({ localRoles: ['patient_terminal'] }).success).toBe(true);
    expect(deviceUpdateSchema.safeParse({ token: 'x' }).success).toBe(false);
  });

  it('workstation lists are named on create and optional on update (spec §5)', () => {
    expect(
      workstationCreateSchema.safeParse({ assignedPatients: [], assignedWorkstations: [] }).success,
    ).toBe(true);
    expect(workstationCreateSchema.safeParse({ assignedPatients: [] }).success).toBe(false);
    expect(workstationUpdateSchema.safeParse({}).success).toBe(true);
    expect(workstationUpdateSchema.safeParse({ device: null }).success).toBe(true);
    expect(workstationUpdateSchema.safeParse({ assignedPatients: ['x'] }).success).toBe(false);
    expect(workstationPatientSchema.safeParse({ id: DEVICE_ID }).success).toBe(true);
    expect(workstationPatientSchema.safeParse({ id: DEVICE_ID, extra: true }).success).toBe(false);
  });

  it('device tokens have a recognisable shape', () => {
    expect(deviceTokenSchema.safeParse(`cpd_${'A'.repeat(43)}`).success).toBe(true);
    expect(deviceTokenSchema.safeParse('A'.repeat(47)).success).toBe(false);
  });
});
