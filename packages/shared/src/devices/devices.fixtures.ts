// Well-formed device stats for tests of the contract, the server and the console.
import type { DeviceStatSubmission } from './devices.contract.ts';

export const sampleStatSubmission = (): DeviceStatSubmission => ({
  bootTime: 1_700_000_000_000,
  firmware: 'careplane-os 2.4.1',
  network: [
    {
      name: 'eth0',
      mac: '02:42:ac:11:00:02',
      type: 'wired',
      active: true,
      ip4: { ip: '10.0.0.12', extIp: '203.0.113.7', gateway: '10.0.0.1', dns: '10.0.0.1,1.1.1.1' },
      ip6: { ip: 'fe80::42:acff:fe11:2', extIp: null, gateway: null, dns: null },
    },
  ],
  system: {
    osVersion: 'Debian 12.5',
    loadAverage: { user: 12.5, wait: 0.4, system: 3.1 },
    hdd: { usage: 41.2, used: 52_000_000_000 },
    cpu: { usage: 16, used: 1_200_000 },
    memory: { usage: 63.5, used: 2_700_000_000 },
    swap: { usage: 0, used: 0 },
  },
  hardware: {
    cpu: [{ model: 'ARM Cortex-A72', cores: 4, speed: 1800 }],
    memory: { total: 4_294_967_296 },
    disks: [{ name: 'mmcblk0', size: 128_000_000_000, type: 'ssd' }],
  },
  software: { system: [{ name: 'careplane-agent', version: '0.3.0' }] },
});
