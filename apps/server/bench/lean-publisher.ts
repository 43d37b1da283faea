// A publisher as lean as a device: QoS 1 PUBLISH packets written straight to the socket, at most `window`
// unacknowledged by the broker, PUBACKs only counted. The bench's devices share the machine with the server,
// the broker and PostgreSQL; a general-purpose client (a promise and a callback per message) took a third of
// a core to publish what the server took in, and that core is the server's to use.
import { once } from 'node:events';
import net from 'node:net';
import mqttPacket, { type Packet } from 'mqtt-packet';

const V5 = { protocolVersion: 5 } as const;

export interface LeanPublisher {
  /** Resolves as soon as the message is written; waits first while `window` messages are unacknowledged. */
  publish(topic: string, payload: string): Promise<void>;
  /** Resolves when the broker has acknowledged every message. */
  drained(): Promise<void>;
  end(): Promise<void>;
}

export async function connectLeanPublisher(
  url: string,
  clientId: string,
  window: number,
): Promise<LeanPublisher> {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port || 1883) });
  socket.setNoDelay(true);
  const parser = mqttPacket.parser(V5);
  let messageId = 0;
  let unacknowledged = 0;
  let waiting: (() => void) | null = null;
  const wake = () => {
    const resume = waiting;
    waiting = null;
    resume?.();
  };
  let accepted!: (error?: Error) => void;
  const connected = new Promise<void>((resolve, reject) => {
    accepted = (error) => (error ? reject(error) : resolve());
  });
  parser.on('packet', (packet: Packet) => {
    if (packet.cmd === 'connack') {
      const code = packet.reasonCode ?? 0;
      accepted(code ? new Error(`the broker refused the publisher (${code})`) : undefined);
    } else if (packet.cmd === 'puback') {
      unacknowledged -= 1;
      wake();
    }
  });
  socket.on('data', (chunk: Buffer) => parser.parse(chunk));
  await once(socket, 'connect');
  socket.write(
    mqttPacket.generate(
      { cmd: 'connect', protocolId: 'MQTT', protocolVersion: 5, clientId, clean: true, keepalive: 60 },
      V5,
    ),
  );
  await connected;
  // Messages written in one turn of the event loop leave in one write.
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  const roomFor = async (limit: number) => {
    while (unacknowledged > limit) await new Promise<void>((resolve) => (waiting = resolve));
  };
  return {
    async publish(topic, payload) {
      await roomFor(window - 1);
      // Ids cycle through 1..65535; with fewer than that in flight, none is reused while unacknowledged.
      messageId = (messageId % 65_535) + 1;
      unacknowledged += 1;
      if (!corked) {
        corked = true;
        socket.cork();
        process.nextTick(uncork);
      }
      socket.write(
        mqttPacket.generate(
          { cmd: 'publish', topic, payload, qos: 1, messageId, retain: false, dup: false },
          V5,
        ),
      );
    },
    drained: () => roomFor(0),
    async end() {
      socket.end(mqttPacket.generate({ cmd: 'disconnect' }, V5));
      await once(socket, 'close');
    },
  };
}
