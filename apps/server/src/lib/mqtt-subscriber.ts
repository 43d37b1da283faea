// A QoS 1 subscriber that acknowledges a message when its handler has settled, not when it arrives, and keeps
// reading the connection meanwhile (decision 026). General-purpose clients acknowledge in order, after the
// handler: holding a PUBACK there holds every message behind it on that connection, so throughput is one
// message per write latency. Here up to `receiveMaximum` messages are in flight per connection (the broker
// sends no more until some are acknowledged: that is the back-pressure), and the acknowledgements of the
// messages a write made durable go out together in one socket write.
//
// MQTT 5 over TCP (`mqtt://`) or TLS (`mqtts://`), with the user name and password of the URL. The session
// outlives the connection (`sessionExpiry`), so what was not acknowledged before a disconnect, a crash or a
// restart is delivered again.
import { once } from 'node:events';
import net from 'node:net';
import tls from 'node:tls';
import mqttPacket, { type IPublishPacket, type Packet } from 'mqtt-packet';
import { loggableReason } from './logging.js';

export interface SubscriberLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface SubscriberOptions {
  url: string;
  clientId: string;
  /** One topic filter, shared subscriptions (`$share/<group>/…`) included; subscribed at QoS 1. */
  filter: string;
  /** Seconds the broker keeps the session (and queues its messages) while this connection is away. */
  sessionExpiry: number;
  /** Messages the broker may have in flight to this connection, unacknowledged. */
  receiveMaximum: number;
  keepaliveSeconds?: number;
  reconnectMs?: number;
  /**
   * The longest wait before reconnecting after handlers failed: each failed connection in a row doubles the
   * wait from `reconnectMs`, so an outage of what the handler writes to is not met with a reconnect a second.
   */
  maxReconnectMs?: number;
  /**
   * Settles when the message may be acknowledged (stored, or refused for good). A rejection drops the
   * connection without acknowledging, so the broker delivers the message again on the next one.
   */
  onMessage(packet: IPublishPacket): Promise<void>;
  log: SubscriberLog;
  /**
   * Takes over the session of a member that stopped without leaving (a crash): leaves the subscription at once,
   * takes what the broker queued for the session, and does not reconnect once the connection ends (the member
   * that comes back takes its session over in turn).
   */
  takeOver?: boolean;
  /**
   * Where connections that fail and recover say so. Several subscriptions of one process to one broker share
   * one (`brokerOutage`), so that a broker away at start or gone later is one line, not one per connection;
   * by default each subscription has its own.
   */
  outage?: BrokerOutage;
}

/** The broker of a URL as a log line names it: host and port, never the user name or password. */
export function brokerAddress(url: string): string {
  const parsed = new URL(url);
  const port = parsed.port || (parsed.protocol === 'mqtts:' ? '8883' : '1883');
  return `${parsed.protocol}//${parsed.hostname}:${port}`;
}

export interface BrokerOutage {
  /** A connection failed (refused, reset, timed out): said once until every failed connection is back. */
  failed(clientId: string, error: Error): void;
  /** A connection was accepted by the broker; the last of those that had failed says the broker is back. */
  connected(clientId: string): void;
  /**
   * A connection that will not try again (closed, or a take-over that ended): it no longer counts, so the others'
   * return is still said, and a later outage too.
   */
  gone(clientId: string): void;
}

/**
 * The connections of one process to one broker report together: the first that fails logs one warning naming
 * the broker and why (no stack: a refused connection is a fact about the broker, not a fault of this code), the
 * others join it silently, and the last of them to connect again logs that the broker is back.
 */
export function brokerOutage(log: SubscriberLog, url: string): BrokerOutage {
  const broker = brokerAddress(url);
  const failing = new Set<string>();
  const everConnected = new Set<string>();
  return {
    failed(clientId, error) {
      if (failing.has(clientId)) return;
      failing.add(clientId);
      if (failing.size > 1) return;
      const code = (error as NodeJS.ErrnoException).code;
      log.warn(
        { broker, reason: loggableReason(error), ...(code ? { code } : {}) },
        everConnected.size
          ? `the MQTT broker at ${broker} was lost; its connections keep trying`
          : `the MQTT broker at ${broker} cannot be reached; its connections keep trying`,
      );
    },
    gone(clientId) {
      failing.delete(clientId);
    },
    connected(clientId) {
      const recovered = failing.delete(clientId);
      const first = !everConnected.has(clientId);
      everConnected.add(clientId);
      if (recovered && failing.size === 0) {
        log.info(
          { broker },
          first
            ? `connected to the MQTT broker at ${broker}`
            : `connected to the MQTT broker at ${broker} again`,
        );
      }
    },
  };
}

export interface Subscription {
  /** Resolves once subscribed the first time; rejects if the broker refuses the session or the filter. */
  ready: Promise<void>;
  /**
   * Stops taking messages (the ones not yet taken stay with the broker's session), waits for the handlers
   * under way and sends their acknowledgements, then disconnects. With `leave`, it first unsubscribes: the
   * session the broker keeps then takes no further share of a shared subscription (other members get it all),
   * where otherwise the broker queues this member's share until it returns, up to its queue limit.
   */
  close(options?: { leave?: boolean; endSession?: boolean }): Promise<void>;
  /** Whether this connection is up and subscribed now (taking messages), for metrics and readiness. */
  subscribed(): boolean;
  /**
   * Resolves once nothing is being handled and no message has come for `quietMs`, or the connection has ended:
   * a session taken over has given up what the broker queued for it.
   */
  quiet(quietMs: number): Promise<void>;
}

const PROTOCOL = { protocolVersion: 5 } as const;

/** How long `close({ leave: true })` waits for the broker to confirm the unsubscription. */
const LEAVE_WAIT_MS = 2_000;

/** One TCP (or TLS) connection; acknowledgements of a connection that has ended are dropped. */
interface Link {
  socket: net.Socket;
  acks: number[];
  flushScheduled: boolean;
  awaitingPong: boolean;
  /** Dropped after a handler failed: it takes nothing more, and ends once its last writes are out. */
  dropped: boolean;
  /** The broker granted the subscription on this connection. */
  subscribed: boolean;
}

export function subscribe(options: SubscriberOptions): Subscription {
  const url = new URL(options.url);
  if (url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:') {
    throw new Error(`MQTT_URL must be mqtt:// or mqtts://, not ${url.protocol}`);
  }
  const secure = url.protocol === 'mqtts:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (secure ? 8883 : 1883));
  const keepalive = options.keepaliveSeconds ?? 30;
  const reconnectMs = options.reconnectMs ?? 1000;
  const maxReconnectMs = options.maxReconnectMs ?? 30_000;
  const { log } = options;

  let closing = false;
  let ended = false;
  /** Connections dropped in a row because a handler failed; an acknowledged message ends the streak. */
  let failedInARow = 0;
  let lastMessageAt = Date.now();
  const outage = options.outage ?? brokerOutage(log, options.url);
  let link: Link | null = null;
  const handling = new Set<Promise<void>>();
  let reconnectTimer: NodeJS.Timeout | null = null;
  /** Settles the unsubscription `close({ leave })` waits for. */
  let unsubscribed: (() => void) | null = null;
  let settleReady!: (error?: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    settleReady = (error) => (error ? reject(error) : resolve());
  });
  // Until someone awaits `ready`, a refusal is only logged.
  ready.catch(() => undefined);

  /** The wait before the next connection after `failedInARow` failed ones. */
  const retryDelay = () => Math.min(maxReconnectMs, reconnectMs * 2 ** Math.max(0, failedInARow - 1));

  const send = (current: Link, packet: Packet) => {
    if (current.socket.writable) current.socket.write(mqttPacket.generate(packet, PROTOCOL));
  };

  /** Every acknowledgement settled since the last flush leaves in one write. */
  const flushAcks = (current: Link) => {
    current.flushScheduled = false;
    if (current.acks.length === 0 || !current.socket.writable) return;
    const packets = current.acks.map((messageId) =>
      mqttPacket.generate({ cmd: 'puback', messageId, reasonCode: 0 }, PROTOCOL),
    );
    current.acks = [];
    current.socket.write(packets.length === 1 ? packets[0]! : Buffer.concat(packets));
  };

  const acknowledge = (current: Link, messageId: number) => {
    if (current !== link || current.dropped) return;
    if (failedInARow > 0) {
      log.info({ clientId: options.clientId, failedInARow }, 'MQTT messages are handled again');
      failedInARow = 0;
    }
    current.acks.push(messageId);
    if (!current.flushScheduled) {
      current.flushScheduled = true;
      setImmediate(flushAcks, current);
    }
  };

  /**
   * Ends a connection without acknowledging what its handlers have not settled: the broker delivers those
   * again on the next one. Acknowledgements already due go out first, so what was stored does not come back.
   */
  const disconnect = (current: Link, endSession = false) => {
    flushAcks(current);
    // A normal disconnect keeps the session (its expiry was set at connect); ending it asks the broker to drop it.
    send(current, {
      cmd: 'disconnect',
      reasonCode: 0,
      ...(endSession ? { properties: { sessionExpiryInterval: 0 } } : {}),
    });
    current.socket.end();
    setTimeout(() => current.socket.destroy(), 5000).unref();
  };

  const drop = (current: Link) => {
    if (current.dropped) return;
    current.dropped = true;
    disconnect(current);
  };

  const receive = (current: Link, packet: IPublishPacket) => {
    // While closing, nothing new is taken: the broker keeps it for the next session.
    if (closing || current.dropped) return;
    lastMessageAt = Date.now();
    const { messageId, qos } = packet;
    const settled = options.onMessage(packet);
    handling.add(settled);
    settled.then(
      () => handling.delete(settled),
      () => handling.delete(settled),
    );
    if (qos === 0) {
      settled.catch((error: unknown) => log.error({ err: error, topic: packet.topic }, 'MQTT message lost'));
      return;
    }
    settled.then(
      () => acknowledge(current, messageId!),
      (error: unknown) => {
        // One line per dropped connection (the messages in flight with it fail alike), and a full one only for
        // the first of a streak: an outage of the database is not a log line per message.
        if (!current.dropped) {
          failedInARow += 1;
          if (failedInARow === 1) {
            log.error(
              { err: error, topic: packet.topic },
              'MQTT message not handled; reconnecting to receive it again',
            );
          } else {
            log.warn(
              {
                reason: loggableReason(error),
                clientId: options.clientId,
                failedInARow,
                retryMs: retryDelay(),
              },
              'MQTT messages still not handled; reconnecting later to receive them again',
            );
          }
        }
        drop(current);
      },
    );
  };

  const onPacket = (current: Link, packet: Packet) => {
    switch (packet.cmd) {
      case 'connack': {
        const code = packet.reasonCode ?? packet.returnCode ?? 0;
        if (code !== 0) {
          const error = new Error(`The MQTT broker refused the connection (reason code ${code})`);
          log.error({ clientId: options.clientId, code }, error.message);
          settleReady(error);
          current.socket.destroy();
          return;
        }
        outage.connected(options.clientId);
        if (options.takeOver) {
          // What the broker queued for the session comes all the same; no further share of the readings does.
          send(current, { cmd: 'unsubscribe', messageId: 2, unsubscriptions: [options.filter] });
          return;
        }
        // A present session still has the subscription; subscribing again is harmless and covers a broker
        // that lost it.
        send(current, {
          cmd: 'subscribe',
          messageId: 1,
          subscriptions: [{ topic: options.filter, qos: 1 }],
        });
        return;
      }
      case 'suback': {
        const [granted] = packet.granted as number[];
        if (granted === undefined || granted > 1) {
          const error = new Error(
            `The MQTT broker refused the subscription to ${options.filter} (${granted})`,
          );
          log.error({ filter: options.filter, granted }, error.message);
          settleReady(error);
          current.socket.destroy();
          return;
        }
        current.subscribed = true;
        settleReady();
        return;
      }
      case 'publish':
        if (packet.qos === 2) {
          // Subscribed at QoS 1, so a broker never sends QoS 2; one that does breaks the protocol.
          log.error({ topic: packet.topic }, 'QoS 2 message on a QoS 1 subscription');
          current.socket.destroy();
          return;
        }
        receive(current, packet);
        return;
      case 'pingresp':
        current.awaitingPong = false;
        return;
      case 'disconnect':
        log.warn(
          { clientId: options.clientId, reasonCode: packet.reasonCode },
          'the MQTT broker disconnected',
        );
        current.socket.destroy();
        return;
      // Packets a broker does not send to a subscriber that publishes nothing.
      case 'auth':
      case 'connect':
      case 'pingreq':
      case 'puback':
      case 'pubcomp':
      case 'pubrec':
      case 'pubrel':
        return;
      case 'unsuback':
        unsubscribed?.();
        if (options.takeOver) settleReady();
        return;
      case 'subscribe':
      case 'unsubscribe':
        return;
    }
  };

  const connect = () => {
    reconnectTimer = null;
    const socket = secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host })
      : net.connect({ host, port });
    socket.setNoDelay(true);
    const current: Link = {
      socket,
      acks: [],
      flushScheduled: false,
      awaitingPong: false,
      dropped: false,
      subscribed: false,
    };
    link = current;

    const parser = mqttPacket.parser(PROTOCOL);
    parser.on('packet', (packet: Packet) => onPacket(current, packet));
    parser.on('error', (error: unknown) => {
      log.error({ err: error }, 'unreadable MQTT packet');
      socket.destroy();
    });
    socket.on('data', (chunk: Buffer) => parser.parse(chunk));
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      send(current, {
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 5,
        clientId: options.clientId,
        clean: false,
        keepalive,
        ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
        ...(url.password ? { password: Buffer.from(decodeURIComponent(url.password)) } : {}),
        properties: {
          sessionExpiryInterval: options.sessionExpiry,
          receiveMaximum: options.receiveMaximum,
        },
      });
    });
    // Keepalive: a ping per interval; an interval without its answer means the connection is gone.
    const pinger = setInterval(() => {
      if (current.awaitingPong) {
        log.warn({ clientId: options.clientId }, 'the MQTT broker stopped answering');
        socket.destroy();
        return;
      }
      current.awaitingPong = true;
      send(current, { cmd: 'pingreq' });
    }, keepalive * 1000);
    pinger.unref();
    // One warning per outage, not one per attempt (nor one per connection, with a shared `outage`).
    socket.on('error', (error: Error) => outage.failed(options.clientId, error));
    socket.on('close', () => {
      clearInterval(pinger);
      if (link === current) link = null;
      if (options.takeOver) {
        ended = true;
        outage.gone(options.clientId);
        // Ended before it could leave the subscription (the broker is away, or its member came back first).
        settleReady(new Error(`The MQTT session ${options.clientId} could not be taken over`));
      } else if (!closing) reconnectTimer = setTimeout(connect, current.dropped ? retryDelay() : reconnectMs);
    });
  };

  connect();

  return {
    ready,
    subscribed: () => link !== null && link.subscribed && !link.dropped && !closing,
    quiet: (quietMs) =>
      new Promise<void>((resolve) => {
        const check = setInterval(
          () => {
            if (ended || (handling.size === 0 && Date.now() - lastMessageAt >= quietMs)) {
              clearInterval(check);
              resolve();
            }
          },
          Math.max(10, quietMs / 4),
        );
      }),
    async close({ leave = false, endSession = false } = {}) {
      closing = true;
      outage.gone(options.clientId);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const joined = link;
      if (leave && joined && !joined.socket.destroyed) {
        // Answered at once by a broker that is up; one that does not answer leaves the session as it is.
        const answered = new Promise<void>((resolve) => {
          unsubscribed = resolve;
          setTimeout(resolve, LEAVE_WAIT_MS).unref();
        });
        send(joined, { cmd: 'unsubscribe', messageId: 2, unsubscriptions: [options.filter] });
        await answered;
        unsubscribed = null;
      }
      // What is being handled is acknowledged before the connection ends.
      await Promise.allSettled(handling);
      await new Promise((resolve) => setImmediate(resolve));
      const current = link;
      if (!current || current.socket.destroyed) return;
      disconnect(current, endSession);
      if (!current.socket.destroyed) await once(current.socket, 'close');
    },
  };
}
