// The agent's command lines, run in this process with their output caught: --help of every command, and
// every mistake answered with exit code 2 and one line on stderr (the synopsis and a pointer to --help under
// it), before anything is written or sent; failures at run time with exit code 1 and one line; and
// simulate-iot sending only the data types the server says the IoT device supports.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './program.ts';
import { AgentState } from './state.ts';

async function agent(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

const STACK = /\n\s+at /;
/** A state directory that is not there (simulate-iot only reads it). */
const NOWHERE = join(tmpdir(), `careplane-agent-nowhere-${process.pid}`);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'careplane-agent-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--help', () => {
  it.each([['--help'], ['-h'], ['help'], ['help', '--help']])('%s answers the commands', async (...argv) => {
    const run = await agent(...argv);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    for (const line of [
      'careplane-agent enroll --server <url> --token <device token> [options]',
      'careplane-agent run [options]',
      'careplane-agent simulate-iot --device <hardwareIdentifier> --rate <readings per second> [options]',
      'careplane-agent help [<command>]',
    ]) {
      expect(run.stdout).toContain(line);
    }
  });

  it.each([
    [
      'enroll',
      ['--server <url>', '--token <device token>', '--allow-shell', '--allow-reboot', '--stats-interval'],
    ],
    ['run', ['--poll-wait <seconds>', '--retry <seconds>', '--state <dir>']],
    [
      'simulate-iot',
      ['--device <hardwareIdentifier>', '--rate <readings per second>', '--types <type,type,...>'],
    ],
  ])('%s: --help, -h and "help <command>" answer its usage and options', async (command, options) => {
    for (const argv of [
      [command, '--help'],
      [command, '-h'],
      ['help', command],
    ]) {
      const run = await agent(...argv);
      expect(run, argv.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(new RegExp(`^Usage: careplane-agent ${command} `));
      for (const option of [...options, '-h, --help']) expect(run.stdout).toContain(option);
    }
  });

  it('is answered whatever else the line holds, and --version answers the version', async () => {
    const run = await agent('simulate-iot', '--bogus', '--rate', 'abc', '--help');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Usage: careplane-agent simulate-iot/);
    expect(await agent('--version')).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      stderr: '',
    });
  });
});

describe('a command line the agent cannot take', () => {
  const sim = ['simulate-iot', '--device', 'HW-1', '--mqtt', 'mqtt://127.0.0.1:1883'];
  const cases: [string[], string][] = [
    [[], 'careplane-agent: no command given'],
    [['frobnicate'], 'careplane-agent: unknown command "frobnicate"'],
    [['--frobnicate'], 'careplane-agent: unknown option --frobnicate'],
    [['help', 'frobnicate'], 'careplane-agent: no help on "frobnicate": not a command'],
    // Options parseArgs refuses.
    [['simulate-iot', '--bogus'], 'careplane-agent simulate-iot: unknown option --bogus'],
    [['simulate-iot', '-x'], 'careplane-agent simulate-iot: unknown option -x'],
    [['simulate-iot', '-device', 'HW-1'], 'unknown option -device (did you mean --device?)'],
    [['run', '--State', NOWHERE], 'careplane-agent run: unknown option --State (did you mean --state?)'],
    [['enroll', '--token', 't', '--server'], 'careplane-agent enroll: --server needs a value'],
    [[...sim, '--rate'], 'careplane-agent simulate-iot: --rate needs a value'],
    [
      [...sim, '--rate', '5', '--count', '-3'],
      '--count needs a value (one that starts with "-" is written --count=<value>)',
    ],
    [['enroll', '--allow-shell=yes'], 'careplane-agent enroll: --allow-shell takes no value'],
    [['run', 'now'], 'careplane-agent run: unexpected argument "now"'],
    // Values the commands refuse.
    [['enroll', '--token', 't'], 'careplane-agent enroll: missing --server <url>'],
    [
      ['enroll', '--server', 'https://careplane.example'],
      'careplane-agent enroll: missing --token <device token>',
    ],
    [
      ['enroll', '--server', 'careplane.example', '--token', 't'],
      '--server must be an http(s) URL such as https://careplane.example, not "careplane.example"',
    ],
    [['enroll', '--server', 'ftp://careplane.example', '--token', 't'], '--server must be an http(s) URL'],
    [
      ['enroll', '--server', 'http://x', '--token', 't', '--stats-interval=-1'],
      '--stats-interval must be a positive number, not "-1"',
    ],
    [
      ['enroll', '--server', 'http://x', '--token', 't', '--command-timeout', '601'],
      '--command-timeout must be a positive number up to 600, not "601"',
    ],
    [
      ['run', '--poll-wait', '61'],
      'careplane-agent run: --poll-wait must be a whole number from 1 to 60, not "61"',
    ],
    [['run', '--poll-wait', '2.5'], '--poll-wait must be a whole number from 1 to 60, not "2.5"'],
    [['run', '--retry', 'soon'], 'careplane-agent run: --retry must be a positive number, not "soon"'],
    [['simulate-iot', '--rate', '5'], 'careplane-agent simulate-iot: missing --device <hardwareIdentifier>'],
    [
      ['simulate-iot', '--device', 'HW-1'],
      'careplane-agent simulate-iot: missing --rate <readings per second>',
    ],
    [
      [...sim, '--rate', 'fast'],
      'careplane-agent simulate-iot: --rate must be a positive number up to 100000, not "fast"',
    ],
    [[...sim, '--rate', '0'], '--rate must be a positive number up to 100000, not "0"'],
    [[...sim, '--rate', '1e6'], '--rate must be a positive number up to 100000, not "1e6"'],
    [[...sim, '--rate', '5', '--count=-3'], '--count must be a whole number of at least 1, not "-3"'],
    [[...sim, '--rate', '5', '--count', '2.5'], '--count must be a whole number of at least 1, not "2.5"'],
    [
      [...sim, '--rate', '5', '--out-of-range', '2'],
      '--out-of-range must be a share between 0 and 1, not "2"',
    ],
    [[...sim, '--rate', '5', '--seed', 'x'], '--seed must be a whole number, not "x"'],
    [
      [...sim, '--rate', '5', '--types', 'heart_rate,glucose'],
      '--types: unknown data type "glucose" (of battery, heart_rate,',
    ],
    [[...sim, '--rate', '5', '--types', ','], '--types needs at least one data type'],
    [['simulate-iot', '--device', 'HW/1', '--rate', '5'], '--device must not contain "/", "+" or "#"'],
    [
      ['simulate-iot', '--device', 'HW-1', '--rate', '5', '--mqtt', 'http://broker'],
      '--mqtt must be an MQTT URL such as mqtt://broker:1883',
    ],
    [['simulate-iot', '--device', 'HW-1', '--rate', '5', '--mqtt', 'mqtt://'], '--mqtt must be an MQTT URL'],
    [
      [...sim, '--rate', '5', '--topic-prefix', 'a/#'],
      '--topic-prefix must not be empty or contain "+" or "#"',
    ],
    [
      ['simulate-iot', '--device', 'HW-1', '--rate', '5', '--state', NOWHERE],
      'careplane-agent simulate-iot: not enrolled (no configuration in',
    ],
  ];

  it.each(cases)('%j: %s', async (argv, message) => {
    const run = await agent(...argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const [first, synopsis, pointer, ...more] = run.stderr.split('\n');
    expect(first).toContain(message);
    expect(more).toEqual([]);
    const command = ['enroll', 'run', 'simulate-iot'].find((name) => name === argv[0]);
    expect(synopsis).toMatch(new RegExp(`^Usage: careplane-agent ${command ?? '<command>'} `));
    expect(pointer).toBe(`Run \`careplane-agent ${command ? `${command} ` : ''}--help\` for more.`);
  });

  it('is refused before anything is written', async () => {
    const state = join(dir, 'never-written');
    const run = await agent(
      'enroll',
      '--server',
      'http://127.0.0.1:9',
      '--token',
      't',
      '--state',
      state,
      '--stats-interval',
      'often',
    );
    expect(run.code).toBe(2);
    expect(existsSync(state)).toBe(false);
    // A bad value is named even where the agent is not enrolled.
    const poll = await agent('run', '--state', join(dir, 'not-enrolled'), '--poll-wait', '0');
    expect(poll.stderr).toContain('--poll-wait must be a whole number from 1 to 60, not "0"');
    const unenrolled = await agent('run', '--state', join(dir, 'not-enrolled'));
    expect(unenrolled).toMatchObject({ code: 2, stdout: '' });
    expect(unenrolled.stderr).toMatch(
      /^careplane-agent run: not enrolled \(no configuration in .*\): run enroll first\n/,
    );
  });
});

/** A stand-in for the server: `answer` decides each response; `requests` keeps what came. */
async function fakeServer(
  answer: (request: IncomingMessage, body: string, response: ServerResponse) => void,
) {
  const requests: { method: string; url: string; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', body });
      answer(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('failures at run time', () => {
  it('are said in one line with exit code 1, never with a stack', async () => {
    // Nothing listens on a port just closed.
    const closed = await fakeServer(() => undefined);
    await closed.close();
    const offline = await agent('enroll', '--server', closed.url, '--token', 't', '--state', join(dir, 'a'));
    expect(offline).toMatchObject({ code: 1, stdout: '' });
    expect(offline.stderr).toMatch(
      new RegExp(`^careplane-agent: The server at ${closed.url} cannot be reached: .*ECONNREFUSED`),
    );
    expect(offline.stderr).not.toContain('\n');

    const server = await fakeServer((request, _body, response) =>
      request.headers.authorization === 'Bearer good'
        ? response.writeHead(200, { 'content-type': 'text/html' }).end('<html>not Careplane</html>')
        : json(response, 401, { message: 'Invalid device token' }),
    );
    try {
      const refused = await agent(
        'enroll',
        '--server',
        server.url,
        '--token',
        'bad',
        '--state',
        join(dir, 'b'),
      );
      expect(refused).toEqual({
        code: 1,
        stdout: '',
        stderr: `careplane-agent: ${server.url} refused the device token (401): check it, or have an admin issue the device a new one`,
      });
      const html = await agent(
        'enroll',
        '--server',
        server.url,
        '--token',
        'good',
        '--state',
        join(dir, 'c'),
      );
      expect(html).toMatchObject({ code: 1, stdout: '' });
      expect(html.stderr).toContain('with something other than JSON: is it a Careplane server?');
      expect(html.stderr).not.toMatch(STACK);
    } finally {
      await server.close();
    }
  });

  it('name a state directory that cannot be used', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'not a directory');
    for (const argv of [
      ['run', '--state', file],
      ['simulate-iot', '--device', 'HW-1', '--rate', '5', '--state', file],
    ]) {
      const run = await agent(...argv);
      expect(run.code, argv.join(' ')).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(`^careplane-agent: The state directory ${file} cannot be used: `),
      );
      expect(run.stderr).not.toMatch(STACK);
    }
  });
});

describe('simulate-iot over HTTP', () => {
  /** A server that links HW-1 (heart rate and battery only) to the device, and takes its readings. */
  async function relayServer() {
    return fakeServer((request, body, response) => {
      if (request.method === 'GET' && request.url === '/api/devices/me/iot-devices') {
        return json(response, 200, [
          {
            id: 'iot-1',
            hardwareIdentifier: 'HW-1',
            model: 'Band',
            trustLevel: null,
            supportedDataTypes: ['heart_rate', 'battery'],
          },
        ]);
      }
      if (request.method === 'POST' && request.url === '/api/iot-devices/data/submit') {
        const { dataType, data } = JSON.parse(body) as { dataType: string; data: unknown[] };
        if (!['heart_rate', 'battery'].includes(dataType))
          return json(response, 400, { message: 'Not supported' });
        return json(response, 201, { count: data.length });
      }
      json(response, 404, { message: 'Not found' });
    });
  }

  async function enrolledState(server: string) {
    const state = new AgentState(await mkdtemp(join(dir, 'state-')));
    await state.init();
    await state.writeConfig({
      server,
      token: 'cpd_token',
      deviceId: 'device-1',
      deviceTitle: 'Relay',
      allowShell: false,
      allowReboot: false,
      statsIntervalSeconds: 60,
      commandTimeoutSeconds: 300,
    });
    return state.dir;
  }

  const submittedTypes = (requests: { url: string; body: string }[]) =>
    new Set(
      requests
        .filter((request) => request.url === '/api/iot-devices/data/submit')
        .map((request) => (JSON.parse(request.body) as { dataType: string }).dataType),
    );

  it("sends only the IoT device's supported data types, or those of them --types names", async () => {
    const server = await relayServer();
    try {
      const state = await enrolledState(server.url);
      const run = await agent(
        'simulate-iot',
        '--device',
        'HW-1',
        '--rate',
        '10000',
        '--count',
        '40',
        '--state',
        state,
        '--seed',
        '1',
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^simulate-iot HW-1 \(seed 1; battery, heart_rate\): sent 40, refused 0, /);
      expect(submittedTypes(server.requests)).toEqual(new Set(['battery', 'heart_rate']));

      server.requests.length = 0;
      const narrowed = await agent(
        ...['simulate-iot', '--device', 'HW-1', '--rate', '10000', '--count', '10', '--state', state],
        ...['--types', 'heart_rate'],
      );
      expect(narrowed.code, narrowed.stderr).toBe(0);
      expect(narrowed.stdout).toContain('(seed');
      expect(narrowed.stdout).toContain('; heart_rate): sent 10, refused 0');
      expect(submittedTypes(server.requests)).toEqual(new Set(['heart_rate']));
    } finally {
      await server.close();
    }
  });

  it('refuses --types the IoT device does not support, sending nothing', async () => {
    const server = await relayServer();
    try {
      const state = await enrolledState(server.url);
      const run = await agent(
        ...['simulate-iot', '--device', 'HW-1', '--rate', '5', '--state', state],
        ...['--types', 'heart_rate,temperature,pressure'],
      );
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'careplane-agent: IoT device "HW-1" does not send temperature, pressure readings (its supported data types: heart_rate, battery)',
      });
      expect(submittedTypes(server.requests)).toEqual(new Set());
    } finally {
      await server.close();
    }
  });
});
