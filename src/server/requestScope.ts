/**
 * The request id of the work in progress, through async calls: set for each GraphQL request (graphql/yoga.ts)
 * from the id the HTTP access log gave it (http.ts), read by whatever logs or records work on the request's
 * behalf, such as a job it enqueues (jobs/queue.ts), so one id joins the access log, the GraphQL log and the job log.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/** The current request's id, if the caller runs on behalf of a request. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}

/** Whether a caller-supplied `x-request-id` may be kept: short and plain, so logs can be joined across services. */
export function isPlainRequestId(id: string | null | undefined): id is string {
  return !!id && /^[\w.-]{1,64}$/.test(id);
}
