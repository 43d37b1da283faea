// Device stats in the structure of spec §3/§5 ("Device stat"), read with systeminformation. Every value is
// kept inside what the server accepts: shares 0–100, byte counts whole, texts bounded and never empty where
// required; a probe that fails (a container without disks, say) leaves its part empty instead of failing.
import si from 'systeminformation';
import { AGENT_VERSION } from './version.js';

const clampPercent = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value)
    ? Math.min(100, Math.max(0, Math.round(value * 100) / 100))
    : 0;
const wholeBytes = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0
    ? Math.min(Math.round(value), Number.MAX_SAFE_INTEGER)
    : 0;
// Control characters are refused by the server's texts.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
const clean = (value: string | number | null | undefined, max: number) =>
  String(value ?? '')
    .replace(CONTROL, ' ')
    .trim()
    .slice(0, max);
const required = (value: string | number | null | undefined, max: number, fallback = 'unknown') =>
  clean(value, max) || fallback;
const orNull = (value: string | number | null | undefined, max: number) => clean(value, max) || null;

async function probe<T>(read: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await read();
  } catch {
    return fallback;
  }
}

export async function collectStats() {
  const [os, load, mem, fs, interfaces, gateway, cpu, disks, time] = await Promise.all([
    probe(() => si.osInfo(), null),
    probe(() => si.currentLoad(), null),
    probe(() => si.mem(), null),
    probe(() => si.fsSize(), []),
    probe(async () => {
      const list = await si.networkInterfaces();
      return Array.isArray(list) ? list : [list];
    }, []),
    probe(() => si.networkGatewayDefault(), ''),
    probe(() => si.cpu(), null),
    probe(() => si.diskLayout(), []),
    probe(async () => si.time(), null),
  ]);

  const root = fs.find((entry) => entry.mount === '/') ?? fs[0];
  const totalMem = mem?.total ?? 0;
  const usedMem = mem ? mem.total - mem.available : 0;
  const cpuBusyMs = load ? Math.round((load.rawCurrentLoad ?? 0) * 10) : 0;

  return {
    ...(time?.uptime ? { bootTime: Math.round(Date.now() - time.uptime * 1000) } : {}),
    firmware: required(os ? `${os.distro} ${os.release} (kernel ${os.kernel})` : '', 255),
    network: interfaces.slice(0, 64).map((entry) => ({
      name: required(entry.iface, 64),
      mac: clean(entry.mac, 64),
      type: clean(entry.type, 32),
      active: entry.operstate === 'up' || (entry.internal && entry.operstate !== 'down'),
      ip4: entry.ip4
        ? {
            ip: orNull(entry.ip4, 64),
            extIp: null,
            gateway: orNull(entry.default ? gateway : '', 64),
            dns: null,
          }
        : null,
      ip6: entry.ip6 ? { ip: orNull(entry.ip6, 64), extIp: null, gateway: null, dns: null } : null,
    })),
    system: {
      osVersion: required(os ? `${os.distro} ${os.release}`.trim() : '', 255),
      loadAverage: {
        user: clampPercent(load?.currentLoadUser),
        wait: clampPercent(load?.currentLoadIrq),
        system: clampPercent(load?.currentLoadSystem),
      },
      hdd: { usage: clampPercent(root?.use), used: wholeBytes(root?.used) },
      cpu: { usage: clampPercent(load?.currentLoad), used: wholeBytes(cpuBusyMs) },
      memory: { usage: clampPercent(totalMem ? (usedMem / totalMem) * 100 : 0), used: wholeBytes(usedMem) },
      swap: {
        usage: clampPercent(mem?.swaptotal ? (mem.swapused / mem.swaptotal) * 100 : 0),
        used: wholeBytes(mem?.swapused),
      },
    },
    hardware: {
      cpu: cpu
        ? [
            {
              model: required(`${cpu.manufacturer} ${cpu.brand}`, 255),
              cores: Math.max(1, Math.min(4096, cpu.cores || 1)),
              speed: Math.max(0, Math.min(100_000, Math.round((cpu.speed || 0) * 1000))),
            },
          ]
        : [],
      memory: { total: wholeBytes(totalMem) },
      disks: disks.slice(0, 64).map((disk) => ({
        name: required(disk.name || disk.device, 128),
        size: wholeBytes(disk.size),
        type: clean(disk.type, 32),
        model: clean(disk.name, 255),
      })),
    },
    software: {
      system: [
        { name: 'careplane-agent', version: AGENT_VERSION },
        { name: 'node', version: clean(process.versions.node, 128) },
      ],
    },
  };
}
