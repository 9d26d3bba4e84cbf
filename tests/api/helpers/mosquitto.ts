/**
 * A real MQTT broker for the tests: Debian's mosquitto (MOSQUITTO_PATH, else /usr/sbin/mosquitto) on a free
 * loopback port, with persistence in a temporary folder, so a restart keeps queued messages of persistent sessions.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const MOSQUITTO = process.env.MOSQUITTO_PATH ?? '/usr/sbin/mosquitto';
export const hasMosquitto = existsSync(MOSQUITTO);

export interface Broker {
  url: string;
  /** Stops the broker (SIGTERM: it saves its persistence file) and starts it again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, deadlineMs = 30_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`mosquitto did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts mosquitto with persistence, on `port` or a free one; close() stops it and removes its folder. */
export async function startBroker(port?: number): Promise<Broker> {
  const dir = mkdtempSync(join(tmpdir(), 'tenant-mqtt-'));
  port ??= await freePort();
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence true',
      `persistence_location ${dir}/`,
      'autosave_interval 1',
      'max_queued_messages 0',
      // Run as root (CI), mosquitto would switch to its own user, which cannot write the temporary folder.
      'user root',
      'log_dest none',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  const broker: Broker = {
    url: `mqtt://127.0.0.1:${port}`,
    async start() {
      child = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
      await waitForPort(port);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      });
    },
    async restart() {
      await broker.stop();
      await broker.start();
    },
    async close() {
      await broker.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await broker.start();
  return broker;
}
