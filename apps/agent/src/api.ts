// The server's device calls (decisions §7, decision 025), with the device token. A network failure is an
// `Offline` error: the caller keeps what it wanted to send and tries again later.

export class Offline extends Error {}

/** An answer that is not the server's JSON: the address is likely not a Careplane server. */
export class BadAnswer extends Error {}

/** An answer the server gave: 4xx refusals are final for what was sent, 5xx are worth another try. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`The server answered ${status}: ${body.slice(0, 300)}`);
  }
  get retryable() {
    return this.status >= 500 || this.status === 429 || this.status === 408;
  }
}

export interface FetchedJob {
  id: string;
  purpose: string;
  commands: string[];
  status: string;
}

export interface LinkedIotDevice {
  id: string;
  hardwareIdentifier: string;
  supportedDataTypes: string[];
}

export class AgentApi {
  constructor(
    private readonly server: string,
    private readonly token: string,
  ) {}

  private async call(
    method: string,
    path: string,
    options: {
      body?: unknown;
      timeoutMs?: number;
      signal?: AbortSignal;
      headers?: Record<string, string>;
    } = {},
  ) {
    const signals = [AbortSignal.timeout(options.timeoutMs ?? 30_000)];
    if (options.signal) signals.push(options.signal);
    let response: Response;
    try {
      response = await fetch(new URL(path, this.server), {
        method,
        headers: {
          ...options.headers,
          authorization: `Bearer ${this.token}`,
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // fetch says only "fetch failed"; its cause says why (refused, unknown host, ...).
      const cause = (error as Error & { cause?: unknown }).cause;
      const reason = cause instanceof Error ? cause.message : (error as Error).message;
      throw new Offline(`The server at ${this.server} cannot be reached: ${reason}`);
    }
    const text = await response.text();
    if (!response.ok) throw new Refused(response.status, text);
    let json: unknown = null;
    try {
      if (text) json = JSON.parse(text);
    } catch {
      throw new BadAnswer(
        `${this.server} answered ${method} ${path} with something other than JSON: is it a Careplane server?`,
      );
    }
    return { status: response.status, json };
  }

  me = async () => (await this.call('GET', '/api/devices/me')).json as { id: string; title: string };

  postStats = (body: unknown) => this.call('POST', '/api/devices/stats', { body });

  /** The next due job, waiting up to `waitSeconds`; null when none came. */
  async nextJob(waitSeconds: number, signal?: AbortSignal): Promise<FetchedJob | null> {
    const answer = await this.call('GET', `/api/devices/me/jobs/next?wait=${waitSeconds}`, {
      timeoutMs: (waitSeconds + 30) * 1000,
      ...(signal ? { signal } : {}),
    });
    return answer.status === 204 ? null : (answer.json as FetchedJob);
  }

  /** The IoT devices linked to this device, whose readings it may submit. */
  linkedIotDevices = async () =>
    (await this.call('GET', '/api/devices/me/iot-devices')).json as LinkedIotDevice[];

  /** A batch of readings of one linked IoT device; a trusted one's carries its connection secret. */
  submitReadings = (body: { iotDeviceId: string; dataType: string; data: unknown[] }, secret?: string) =>
    this.call('POST', '/api/iot-devices/data/submit', {
      body,
      ...(secret ? { headers: { 'x-connection-secret': secret } } : {}),
    });

  acknowledge = (jobId: string) => this.call('POST', `/api/devices/me/jobs/${encodeURIComponent(jobId)}/ack`);

  report = (jobId: string, body: unknown) =>
    this.call('POST', `/api/devices/me/jobs/${encodeURIComponent(jobId)}/status`, { body });
}
