/**
 * `npm run worker`: the job worker on its own, for PostgreSQL deployments. Run as many as you like; they
 * share the queue through FOR UPDATE SKIP LOCKED and never run the same job twice.
 */
import { hostname } from 'node:os';
import { sharePeopleSignal } from './ingest/people.ts';
import { mailTransportFor } from './jobs/mail.ts';
import { createJobRunner } from './jobs/runner.ts';
import { startMetricsServer } from './metricsHttp.ts';
import { startMqttIfConfigured } from './mqtt/subscriber.ts';
import { checkNodeVersion } from './nodeVersion.ts';
import { getServices, setProcessRole } from './runtime.ts';

async function main(): Promise<void> {
  // Never migrates: refuses a schema that is behind. On the embedded database it refuses to start while
  // `npm start` (which runs the jobs itself) has it open.
  checkNodeVersion();
  setProcessRole('worker');
  const { config, database, logger } = await getServices();
  const runner = createJobRunner({
    db: database.db,
    logger,
    mail: mailTransportFor(config),
    pollMs: 2_000,
    jobRetentionDays: config.JOB_RETENTION_DAYS,
    readingRetentionYears: config.READING_RETENTION_YEARS,
    meterHealth: { silentHours: config.METER_SILENT_HOURS, stuckDays: config.METER_STUCK_DAYS },
    mqttOrganisation: config.MQTT_ORGANISATION,
  });
  const stopJobs = runner.start();
  const stopMqtt = startMqttIfConfigured(database.db, logger, config);
  // A large batch's parts give way to people using the app processes (ingest/people.ts, on PostgreSQL).
  const stopPeople = await sharePeopleSignal(database, logger);
  const stop = () => Promise.all([stopJobs(), stopMqtt(), stopPeople()]);
  // The worker's own metrics (its job runs, the queue, the process) on METRICS_PORT when set.
  await startMetricsServer({ config, database, logger });
  logger.info({ worker: `${hostname()}:${process.pid}` }, 'worker started');
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'worker stopping after the job in flight');
    stop()
      .then(() => database.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
