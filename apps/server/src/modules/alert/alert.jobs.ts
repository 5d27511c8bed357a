import type { Job } from '../../context.ts'
import { escalationJob } from './escalation.ts'
import { smsDispatchJob } from './sms-dispatch.ts'

/** Escalation first: the SMS it queues go out in the same tick. */
export const alertJobs: readonly Job[] = [escalationJob, smsDispatchJob]
