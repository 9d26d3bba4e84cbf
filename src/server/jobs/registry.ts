/** Every task the worker knows, by name. */
import { ingestBatchTask } from '../ingest/batchTask.ts';
import { lateDataTask } from '../ingest/lateData.ts';
import { meterHealthTask } from '../ingest/meterHealth.ts';
import { feedCheckTask } from '../mqtt/alert.ts';
import type { Task } from './task.ts';
import { consumptionReportTask } from './tasks/consumptionReport.ts';
import { evaluateAlarmTask } from './tasks/evaluateAlarm.ts';
import { notificationMailTask } from './tasks/notificationMail.ts';
import { partitionsTask } from './tasks/partitions.ts';
import { sendMailTask } from './tasks/sendMail.ts';
import { sweepTask } from './tasks/sweep.ts';

/** The app's tasks. */
export const ALL_TASKS: readonly Task[] = [
  evaluateAlarmTask,
  consumptionReportTask,
  notificationMailTask,
  sendMailTask,
  sweepTask,
  ingestBatchTask,
  meterHealthTask,
  lateDataTask,
  partitionsTask,
  feedCheckTask,
] as unknown as readonly Task[];
