// Time series of the demo: device stats and IoT readings on a fixed absolute time grid.
//
// A value depends only on (seed, series, absolute time slot), never on when the data was loaded, so two
// loads with the same seed agree on every slot they share, and two loads with the same anchor are identical.
import type { IotDataType } from '@careplane/shared/common/enums';
import type { deviceStats, iotDeviceData } from '../schema/index.js';
import { hashInts, hashString, hashUnit, type IdFactory } from './random.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;
/**
 * How far back the demo's time series go: a month of device stats and readings, the longest period the console's
 * charts offer, so that a 30-day chart is full on a fresh start.
 */
export const HISTORY = 30 * DAY;
/**
 * Device stats older than this are hourly, not every 15 minutes: a month of full stats (large rows: the network,
 * the hardware and the software with every report) tripled the time a fresh start takes to load the demo.
 */
export const HOURLY_STATS_BEFORE = WEEK;
/** Device stats arrive every 15 minutes; the demo anchor is rounded down to this step. */
export const STAT_INTERVAL = 15 * MINUTE;
/** Thailand is UTC+7 all year: daily rhythms follow local time. */
const LOCAL_OFFSET = 7 * HOUR;

type StatRow = typeof deviceStats.$inferInsert;
type ReadingRow = typeof iotDeviceData.$inferInsert;

const localHour = (timestamp: number) => ((((timestamp + LOCAL_OFFSET) % DAY) + DAY) % DAY) / HOUR;
/** 0 at 04:00 local time, 1 at 16:00: a smooth day/night activity curve. */
const activity = (timestamp: number) => (1 - Math.cos(((localHour(timestamp) - 4) / 24) * 2 * Math.PI)) / 2;
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** The slots k·period (+ phase) inside (from, to]. */
function* slots(from: number, to: number, period: number, phase = 0) {
  let slot = Math.floor((from - phase) / period) + 1;
  for (let timestamp = slot * period + phase; timestamp <= to; timestamp = ++slot * period + phase) {
    yield { slot, timestamp };
  }
}

export interface StatSeries {
  deviceId: string;
  /** A stable key of the device within the seed (names ids and noise). */
  key: string;
  role: string;
  from: number;
  to: number;
  firmware: string;
  /** 0..1: how busy the device usually is. */
  busyness: number;
  /** How often the agent reports: every 15 minutes (STAT_INTERVAL) unless given; a multiple of it. */
  interval?: number;
}

const kernel = '6.1.0-28-amd64';
const agentVersion = '0.3.0';

function macFor(key: string, nic: number) {
  const hash = hashInts(hashString(key), nic);
  const bytes = [0x02, 0x42, (hash >>> 24) & 0xff, (hash >>> 16) & 0xff, (hash >>> 8) & 0xff, hash & 0xff];
  return bytes.map((byte) => byte.toString(16).padStart(2, '0')).join(':');
}

export function buildDeviceStats(series: StatSeries, seedHash: number, id: IdFactory): StatRow[] {
  const keyHash = hashString(series.key);
  const lan = 10 + (keyHash % 200);
  const host = 20 + ((keyHash >>> 8) % 200);
  const memoryTotal = [4, 8, 16][keyHash % 3]! * 1024 ** 3;
  const diskTotal = [64, 128, 256][(keyHash >>> 4) % 3]! * 1024 ** 3;
  const cores = [2, 4, 8][(keyHash >>> 6) % 3]!;
  const isWireless = series.role === 'patient_terminal';
  const hardware = {
    cpu: [
      {
        model: cores === 8 ? 'Intel(R) Core(TM) i5-1235U' : 'Intel(R) Celeron(R) N5105 @ 2.00GHz',
        cores,
        speedMHz: cores === 8 ? 1300 : 2000,
      },
    ],
    memory: { total: memoryTotal },
    disks: [{ name: 'nvme0n1', type: 'ssd', size: diskTotal }],
  };
  const software = {
    system: [
      { name: 'careplane-agent', version: agentVersion },
      { name: 'linux', version: kernel },
      { name: 'chromium', version: '131.0.6778.139' },
    ],
  };
  const rows: StatRow[] = [];
  for (const { timestamp: grid } of slots(series.from, series.to, series.interval ?? STAT_INTERVAL)) {
    // The quarter hour names the stat and its noise, at any interval (hourly stats fall on quarter hours too):
    // a moment's stat is the same whichever interval reaches it.
    const slot = Math.round(grid / STAT_INTERVAL);
    const noise = (salt: number) => hashUnit(seedHash, keyHash, slot, salt);
    // The agent reports a few seconds after the quarter hour.
    const timestamp = grid + Math.floor(noise(1) * 20_000);
    // Devices reboot every few days at a device-specific hour.
    const rebootPeriod = (3 + (keyHash % 3)) * DAY;
    const rebootPhase = (keyHash % 24) * HOUR;
    const bootTime =
      Math.floor((timestamp - rebootPhase) / rebootPeriod) * rebootPeriod + rebootPhase + 41_000;
    const load = series.busyness * (0.3 + 0.7 * activity(timestamp)) + noise(2) * 0.25;
    const cpuUsage = round(Math.min(98, 3 + load * 70), 1);
    const memoryUsage = round(Math.min(95, 25 + load * 45 + noise(3) * 5), 1);
    const hddUsed = Math.round(diskTotal * (0.32 + (timestamp % (30 * DAY)) / (30 * DAY) / 20));
    const ip6Suffix = (keyHash & 0xffff).toString(16);
    rows.push({
      id: id('device-stat', series.key, slot),
      timestamp,
      bootTime,
      firmware: series.firmware,
      network: [
        {
          name: isWireless ? 'wlan0' : 'eth0',
          mac: macFor(series.key, 0),
          type: isWireless ? 'wireless' : 'wired',
          active: true,
          ip4: {
            ip: `192.168.${lan}.${host}`,
            extIp: `203.150.${lan}.${(host * 7) % 250}`,
            gateway: `192.168.${lan}.1`,
            dns: ['192.168.' + lan + '.1', '1.1.1.1'],
          },
          ip6: {
            ip: `fd00:${lan}::${ip6Suffix}`,
            extIp: `2001:fb1:${lan}::${ip6Suffix}`,
            gateway: `fd00:${lan}::1`,
            dns: ['2606:4700:4700::1111'],
          },
        },
        {
          name: isWireless ? 'eth0' : 'wlan0',
          mac: macFor(series.key, 1),
          type: isWireless ? 'wired' : 'wireless',
          active: false,
          ip4: { ip: null, extIp: null, gateway: null, dns: [] },
          ip6: { ip: null, extIp: null, gateway: null, dns: [] },
        },
      ],
      system: {
        osVersion: 'Debian GNU/Linux 12 (bookworm)',
        // Shares of CPU time in per cent, as the agent reports them (systeminformation's currentLoadUser, …):
        // together about the CPU usage beside them.
        loadAverage: {
          user: round(cpuUsage * 0.7, 1),
          wait: round(noise(4) * 2, 1),
          system: round(cpuUsage * 0.25, 1),
        },
        hdd: { usage: round((hddUsed / diskTotal) * 100, 1), used: hddUsed },
        cpu: { usage: cpuUsage, used: round((cpuUsage / 100) * cores, 2) },
        memory: { usage: memoryUsage, used: Math.round((memoryUsage / 100) * memoryTotal) },
        swap: { usage: round(noise(5) * 3, 1), used: Math.round(noise(5) * 0.03 * 2 * 1024 ** 3) },
      },
      hardware,
      software,
      deviceId: series.deviceId,
      createdAt: new Date(timestamp + 150),
    });
  }
  return rows;
}

export interface ReadingSeries {
  iotDeviceId: string;
  key: string;
  dataType: Exclude<IotDataType, 'alert'>;
  userId: string;
  from: number;
  to: number;
  /** A per-patient baseline shift: 0..1. */
  baseline: number;
  /** Periods (relative to the anchor) with a clinical episode: high heart rate, fever. */
  episodes?: readonly { from: number; to: number }[];
}

const periods: Record<ReadingSeries['dataType'], number> = {
  heart_rate: 15 * MINUTE,
  battery: HOUR,
  temperature: 4 * HOUR,
  pressure: 30 * MINUTE,
  blood_pressure: 8 * HOUR,
};

export function buildReadings(series: ReadingSeries, seedHash: number, id: IdFactory): ReadingRow[] {
  const keyHash = hashString(`${series.key}:${series.dataType}`);
  // Measurements the patient takes by hand (blood pressure) happen at 07:00, 15:00 and 23:00 local time.
  const phase = series.dataType === 'blood_pressure' ? 0 : (keyHash % 60) * 1000;
  const rows: ReadingRow[] = [];
  const inEpisode = (timestamp: number) =>
    series.episodes?.some((episode) => timestamp >= episode.from && timestamp <= episode.to) ?? false;
  for (const { slot, timestamp: grid } of slots(series.from, series.to, periods[series.dataType], phase)) {
    const noise = (salt: number) => hashUnit(seedHash, keyHash, slot, salt);
    const timestamp = grid + Math.floor(noise(1) * 30_000);
    const day = activity(timestamp);
    let data: Record<string, unknown>;
    switch (series.dataType) {
      case 'heart_rate': {
        const base = 58 + series.baseline * 22 + day * 14 + (noise(2) - 0.5) * 10;
        data = { rate: Math.round(inEpisode(timestamp) ? base + 55 + noise(3) * 15 : base) };
        break;
      }
      case 'battery': {
        // Drains over a device-specific cycle, then is charged back to full.
        const cycle = (36 + (keyHash % 36)) * HOUR;
        const position = (((timestamp + (keyHash % 24) * HOUR) % cycle) + cycle) % cycle;
        data = { level: Math.max(3, Math.round(100 - (position / cycle) * 92 - noise(2) * 2)) };
        break;
      }
      case 'temperature': {
        const base = 36.3 + series.baseline * 0.3 + day * 0.4 + (noise(2) - 0.5) * 0.3;
        data = { value: round(inEpisode(timestamp) ? base + 1.6 + noise(3) * 0.6 : base, 1), unit: '°C' };
        break;
      }
      case 'pressure': {
        // An under-mattress sensor: weight on the bed at night, an empty bed most of the day.
        const hour = localHour(timestamp);
        const inBed = hour >= 22 || hour < 6.5 || (hour >= 13 && hour < 14 && noise(4) < 0.6);
        data = {
          value: round(inBed ? 3.4 + series.baseline + noise(2) * 0.6 : noise(2) * 0.15, 2),
          unit: 'kPa',
        };
        break;
      }
      case 'blood_pressure': {
        const sys = 112 + series.baseline * 30 + day * 8 + (noise(2) - 0.5) * 12;
        const dias = 70 + series.baseline * 16 + day * 4 + (noise(3) - 0.5) * 8;
        data = { sys: Math.round(sys), dias: Math.round(dias) };
        break;
      }
    }
    rows.push({
      id: id('reading', series.key, series.dataType, slot),
      timestamp,
      dataType: series.dataType,
      data: { ...data, timestamp },
      iotDeviceId: series.iotDeviceId,
      userId: series.userId,
      createdByUserId: series.userId,
      createdAt: new Date(timestamp + 800 + Math.floor(noise(5) * 1500)),
    });
  }
  return rows;
}
