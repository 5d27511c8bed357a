import pg from 'pg'

// A PostgreSQL server as a whole (its databases, not one of them): what the test templates and
// the benchmarks use to create, copy and drop databases.

/** `serverUrl` (any database of a PostgreSQL server) pointing at database `name` instead. */
export function databaseUrl(serverUrl: string, name: string): string {
  const u = new URL(serverUrl)
  u.pathname = `/${name}`
  return u.toString()
}

/** Runs `statement` on the server of `serverUrl`, in a connection of its own. */
export async function onServer<T>(serverUrl: string, statement: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: serverUrl })
  await c.connect()
  try {
    return await statement(c)
  } finally {
    await c.end()
  }
}
