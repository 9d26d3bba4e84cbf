/**
 * Whether people are using the app in this process: a GraphQL request (a tenant's page, the console, an account
 * page) arrived within PEOPLE_WINDOW_MS. While they are, ingestion's lanes give way (INGEST_YIELD in
 * groupCommit.ts): a person waits for each answer, and a gateway's batch does not mind a few milliseconds more.
 * The signal is this process's only: a tenant served by another app process is not seen here.
 */
export const PEOPLE_WINDOW_MS = 2_000;

let lastAt = Number.NEGATIVE_INFINITY;

/** A person's request arrived (http.ts, for the three GraphQL endpoints). */
export function notePersonRequest(now = performance.now()): void {
  lastAt = now;
}

/** Whether a person's request arrived within PEOPLE_WINDOW_MS of `now`. */
export function peopleActive(now = performance.now()): boolean {
  return now - lastAt < PEOPLE_WINDOW_MS;
}
