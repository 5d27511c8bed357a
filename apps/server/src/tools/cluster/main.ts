// `npm run cluster [-- --servers N --dir DIR]`: PostgreSQL, Mosquitto, N server instances (default 2)
// and nginx on this machine, from Debian's packages (launch.ts). nginx listens on CLUSTER_PORT
// (default 8000). Prints the URLs, the demo sign-ins and the simulator's command; Ctrl-C or
// SIGTERM stops everything it started. The data (<dir>/pg, uploads, secrets) is kept for the next run.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { openPostgres } from '../../db/client.ts'
import { DEMO_PASSWORD, demoMembers, hasDemo } from '../../seed/seed.ts'
import { alive, type Cluster, ClusterRunningError, DEFAULT_DIR, REPO_ROOT, startCluster } from './launch.ts'

function fail(message: string): never {
  console.error(`\n${message}\n`)
  process.exit(1)
}

function port(value: string | undefined): number {
  if (value === undefined || value === '') return 8000
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    fail(`CLUSTER_PORT must be a port number (0 picks a free one), not ${value}`)
  return n
}

/** The sign-in lines, when the database holds the demo network (it is seeded only into an empty one). */
async function demoLines(databaseUrl: string): Promise<string[]> {
  const database = await openPostgres(databaseUrl)
  try {
    if (!(await hasDemo(database.db))) return ['  no demo network in this database']
  } finally {
    await database.close()
  }
  const lines = [`  demo sign-ins (password ${DEMO_PASSWORD}):`]
  const seen = new Set<string>()
  for (const m of demoMembers) {
    if (seen.has(m.phone)) continue
    seen.add(m.phone)
    lines.push(`    ${m.phone}  ${m.name}`)
  }
  return lines
}

/**
 * The npm, sh and tsx processes above this one (`npm run cluster` is npm, sh, npm, sh, tsx, node).
 * A SIGTERM sent to the outer npm does not reach this process (the inner npm is left running), so
 * the launcher watches them and stops the cluster when one of them is gone.
 */
function wrappers(): number[] {
  const chain: number[] = []
  let pid = process.ppid
  while (pid > 1) {
    let cmd: string
    let stat: string
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      break // not Linux, or gone
    }
    if (!/^(npm |sh -c |node \S*\/npm |\S*node \S*tsx)/.test(cmd)) break
    chain.push(pid)
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  }
  return chain
}

function args() {
  try {
    return parseArgs({ options: { servers: { type: 'string', default: '2' }, dir: { type: 'string' } } })
      .values
  } catch (e) {
    fail(`${(e as Error).message}\nUsage: [CLUSTER_PORT=8000] npm run cluster [-- --servers N --dir DIR]`)
  }
}

async function main() {
  const values = args()
  const servers = Number(values.servers)
  if (!Number.isInteger(servers) || servers < 1) fail('--servers must be a whole number, 1 or more')
  const dir = values.dir ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.dir) : DEFAULT_DIR

  // The instances serve the console from apps/web/dist, as `npm start` does: build it when missing.
  if (!fs.existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'))) {
    console.log('building the console (apps/web/dist is missing)')
    const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: REPO_ROOT, stdio: 'inherit' })
    if (r.status !== 0) fail('The console build failed (npm run build).')
  }

  const t0 = Date.now()
  let cluster: Cluster | null = null
  let stopping = 0
  // A signal while starting cancels the start (startCluster stops what it started, then rejects).
  const starting = new AbortController()
  const shutdown = (signal: string) => {
    if (stopping) {
      // npm and tsx pass a terminal's Ctrl-C on as well: only a later one is the user's.
      if (Date.now() - stopping > 1000) console.log(`${signal} again: still stopping, please wait`)
      return
    }
    stopping = Date.now()
    console.log(`\n${signal}: stopping the cluster`)
    if (!cluster) {
      starting.abort()
      return
    }
    cluster.stop().then(
      () => {
        console.log(`stopped; the data is kept in ${dir}`)
        process.exit(0)
      },
      (e: Error) => fail(`Stopping failed: ${e.message}`),
    )
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  const above = wrappers()
  setInterval(() => {
    if (above.some((pid) => !alive(pid))) shutdown('npm ended')
  }, 1000).unref()

  try {
    cluster = await startCluster({
      dir,
      port: port(process.env.CLUSTER_PORT),
      servers,
      signal: starting.signal,
    })
  } catch (e) {
    if (starting.signal.aborted) {
      console.log(`stopped; the data is kept in ${dir}`)
      process.exit(0)
    }
    if (e instanceof ClusterRunningError) fail(e.message)
    fail(`The cluster did not start: ${(e as Error).message}`)
  }

  const { urls } = cluster
  const lines = [
    '',
    `AED Cloud cluster is running at ${urls.http} (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    `  console and API (nginx): ${urls.http}`,
    `  live channel:            ${urls.ws}`,
    `  device MQTT (Mosquitto): ${urls.mqtt}`,
    ...urls.servers.map((u, i) => `  server-${i}:                ${u}`),
    `  PostgreSQL:              ${urls.databaseUrl}`,
    ...(await demoLines(urls.databaseUrl)),
    '  the simulator against it:',
    `    npm run simulate -- --mqtt --url ${urls.http} --mqtt-url ${urls.mqtt}`,
    `  processes, pids and ports: ${path.join(cluster.dir, 'state.json')}; logs in ${path.join(cluster.dir, 'logs')}`,
    '  Ctrl-C stops everything.',
  ]
  console.log(lines.join('\n'))
}

void main()
