// What `careplane-agent --help` and `careplane-agent <command> --help` answer. The first line after "Usage:"
// of each is repeated under a usage error, with a pointer to the command's --help.
import { IOT_DATA_TYPES } from './readings.js';
import { AGENT_VERSION } from './version.js';

export const COMMANDS = ['enroll', 'run', 'simulate-iot'] as const;
export type Command = (typeof COMMANDS)[number];

const STATE = `  --state <dir>                 the state directory (default ~/.careplane-agent, or CAREPLANE_AGENT_STATE)
  -h, --help                    this help`;

export const SYNOPSIS: Record<Command | 'agent', string> = {
  agent: 'careplane-agent <command> [options]    (commands: enroll, run, simulate-iot, help)',
  enroll: 'careplane-agent enroll --server <url> --token <device token> [options]',
  run: 'careplane-agent run [options]',
  'simulate-iot':
    'careplane-agent simulate-iot --device <hardwareIdentifier> --rate <readings per second> [options]',
};

export const USAGE: Record<Command | 'agent', string> = {
  agent: `careplane-agent ${AGENT_VERSION}: the Careplane device agent

Usage:
  careplane-agent enroll --server <url> --token <device token> [options]
  careplane-agent run [options]
  careplane-agent simulate-iot --device <hardwareIdentifier> --rate <readings per second> [options]
  careplane-agent help [<command>]     (or careplane-agent <command> --help)
  careplane-agent --version

Commands:
  enroll         checks a device token with the server and keeps it in the state directory
  run            posts the device's stats, runs its jobs and reports their results
  simulate-iot   sends simulated readings of an IoT device, over MQTT or as the enrolled device over HTTP

The state directory defaults to ~/.careplane-agent (or CAREPLANE_AGENT_STATE).
Exit codes: 0 done, 1 failed (the server or broker cannot be reached, refused, ...), 2 a wrong command line,
75 restart me (after a restart-agent job).`,

  enroll: `Usage: ${SYNOPSIS.enroll}

Checks the device token with the server (GET /api/devices/me), then keeps the server, the token and what the
device may run in the state directory (config.json, readable by its owner only).

Options:
  --server <url>                the Careplane server, http(s)://host[:port] (required)
  --token <device token>        the token an admin was shown for this device (required)
  --allow-shell                 jobs may run commands outside the agent's vocabulary, with /bin/sh -c
  --allow-reboot                the reboot command reboots (otherwise it is only simulated and reported)
  --stats-interval <seconds>    seconds between two stats (default 60)
  --command-timeout <seconds>   how long one command may run, at most 600 (default 300)
${STATE}`,

  run: `Usage: ${SYNOPSIS.run}

Posts the device's stats, long-polls its runner jobs, runs them and reports their results; what cannot be
delivered while the server is unreachable waits on disk. Ctrl-C (SIGINT) or SIGTERM stops it; after a
restart-agent job it exits with code 75, for its supervisor to start it again. Enroll first.

Options:
  --poll-wait <seconds>         how long one job poll waits on the server, 1 to 60 (default 25)
  --retry <seconds>             the pause before trying again while the server cannot be reached (default 10)
${STATE}`,

  'simulate-iot': `Usage: ${SYNOPSIS['simulate-iot']}

Sends simulated readings of an IoT device at a steady rate, some outside the alert bounds, only of the data
types it supports. With --mqtt it publishes to <prefix>/<hardwareIdentifier>/<dataType>; without it, it
submits over HTTP as the enrolled device, for an IoT device linked to it, and learns the IoT device's
supported data types from the server.

Options:
  --device <hardwareIdentifier> the IoT device (required)
  --rate <readings per second>  readings per second over all types together, up to 100000 (required)
  --count <n>                   stop after n readings (default: until Ctrl-C)
  --types <type,type,...>       the data types to send, of:
                                ${IOT_DATA_TYPES.join(', ')}.
                                Only the device's supported types may be named; they are the default,
                                read from the server (every type when the device names none). Over MQTT
                                the broker cannot tell: name them, or enroll the agent so it asks
  --out-of-range <share>        the share of readings out of range and of device alerts, 0 to 1 (default 0.05)
  --seed <integer>              repeats a run's values (default: a random seed, printed at the end)
  --secret <connection secret>  a trusted IoT device's connection secret
  --mqtt <url>                  the MQTT broker: mqtt(s)://, tcp://, ssl:// or ws(s):// host[:port]
  --topic-prefix <prefix>       the MQTT topic prefix (default careplane/iot)
  --state <dir>                 the enrolled agent's state directory (default as for run)
  -h, --help                    this help`,
};
