/** The worker inside the `npm start` process (embedded PGlite, or PostgreSQL when no separate worker runs). */
import { startMqttIfConfigured } from '../mqtt/subscriber.ts';
import type { Services } from '../runtime.ts';
import { mailTransportFor } from './mail.ts';
import { createJobRunner } from './runner.ts';

/** Starts the embedded worker (unless WORKER=off, for deployments that run `npm run worker`); returns stop(). */
export function startEmbeddedWorker(services: Services): () => Promise<void> {
  if (process.env.WORKER === 'off') return async () => {};
  const runner = createJobRunner({
    db: services.database.db,
    logger: services.logger,
    mail: mailTransportFor(services.config),
    pollMs: 15_000,
    jobRetentionDays: services.config.JOB_RETENTION_DAYS,
    readingRetentionYears: services.config.READING_RETENTION_YEARS,
    meterHealth: {
      silentHours: services.config.METER_SILENT_HOURS,
      stuckDays: services.config.METER_STUCK_DAYS,
    },
    mqttOrganisation: services.config.MQTT_ORGANISATION,
  });
  const stopJobs = runner.start();
  const stopMqtt = startMqttIfConfigured(services.database.db, services.logger, services.config);
  // Once, whoever asks first (its own signal listener below, or the server's shutdown, which waits for it before
  // it closes the database: the subscriber's last status report and what it stored need it open).
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= Promise.all([stopJobs(), stopMqtt()]).then(() => {});
    return stopping;
  };
  // A job cut off by the exit rolls back and runs again on the next start; stopping first just saves that work.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.prependOnceListener(signal, () => void stop());
  return stop;
}
