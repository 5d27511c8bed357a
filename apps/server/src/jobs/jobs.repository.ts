import type { Connection } from '../db/client.ts'

// job_runs is read and written on the connection that holds the job's advisory lock.

/** When the job last succeeded, or null if never. */
export async function lastRunAt(conn: Connection, name: string): Promise<Date | null> {
  const [row] = await conn.query<{ last_run_at: Date | string | null }>(
    'SELECT last_run_at FROM job_runs WHERE name = $1',
    [name],
  )
  return row?.last_run_at ? new Date(row.last_run_at) : null
}

export async function recordStart(conn: Connection, name: string, now: Date) {
  await conn.query(
    `INSERT INTO job_runs (name, last_started_at) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET last_started_at = EXCLUDED.last_started_at`,
    [name, now.toISOString()],
  )
}

export async function recordSuccess(conn: Connection, name: string, now: Date) {
  await conn.query(
    `UPDATE job_runs SET last_run_at = $2, failures = 0, runs = runs + 1, last_error = NULL
     WHERE name = $1`,
    [name, now.toISOString()],
  )
}

export async function recordFailure(conn: Connection, name: string, now: Date, message: string) {
  await conn.query(
    `UPDATE job_runs SET last_error = $3, last_error_at = $2, failures = failures + 1 WHERE name = $1`,
    [name, now.toISOString(), message.slice(0, 500)],
  )
}
