import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import pg from 'pg'

// A whole deployment on one machine (issue 29): PostgreSQL, Mosquitto with its dynamic-security
// plugin, N server instances and nginx in front of them, from Debian's packages. `npm run cluster`
// (main.ts), the fault suite and the cluster benchmark start it through startCluster().

/** apps/server: where the server instances run. */
const SERVER_ROOT = path.resolve(import.meta.dirname, '../../..')
const SERVER_MAIN = path.join(SERVER_ROOT, 'src/main.ts')
/** The repository root: the default working folder is <repo>/.cluster. */
export const REPO_ROOT = path.resolve(SERVER_ROOT, '../..')
export const DEFAULT_DIR = path.join(REPO_ROOT, '.cluster')

const DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so'
const NGINX = '/usr/sbin/nginx'
const MOSQUITTO = '/usr/sbin/mosquitto'
/** The MQTT account of the server instances, created as the dynamic-security admin. */
const MQTT_ADMIN = 'aedcloud-server'
/** The live channel (contracts' LIVE_PATH): a long-lived WebSocket through nginx. */
const LIVE_PATH = '/api/v1/system/data/'

export type ClusterOptions = {
  /** Working folder (default <repo>/.cluster): pg data, mosquitto and nginx configs, logs, state.json. */
  dir: string
  /** nginx's HTTP port (CLUSTER_PORT, default 8000). 0 = a free port. */
  port?: number
  /** Server instances (default 2). */
  servers?: number
  /** Seed the demo network (default true; the fault suite and benchmarks may pass false and seed their own). */
  seedDemo?: boolean
  /** Extra environment for every server instance (e.g. LOG_LEVEL, DEV_SMS_OUTBOX). */
  env?: Record<string, string>
  /** Environment overrides of instance i, given its base environment (e.g. a DATABASE_URL through a proxy). */
  serverEnv?: (i: number, base: Record<string, string>) => Record<string, string>
  /** Progress lines (default console.log). */
  log?: (line: string) => void
  /** Cancels a start under way (Ctrl-C while the demo is being seeded): what started is stopped, and startCluster rejects. */
  signal?: AbortSignal
  /** How long instance 0 may take to answer GET /api/ready (the first start seeds the demo); default 10 min. */
  readyTimeoutMs?: number
}

export type ProcessRole = 'postgres' | 'mosquitto' | 'server' | 'nginx'

/** One process the launcher started. */
export type ClusterProcess = {
  role: ProcessRole
  /** 'postgres', 'mosquitto', 'server-0', 'server-1', …, 'nginx'. */
  name: string
  pid: number
  ports: Record<string, number>
  /** False once it exited (killed, crashed) and was not started again. */
  running: boolean
  log: string
}

/** What is written to <dir>/state.json. */
export type ClusterState = {
  started: string
  dir: string
  /** The launcher's own process: a second launcher on the same folder refuses while it lives. */
  launcherPid: number
  urls: Cluster['urls']
  /** The servers' MQTT account, which is also the dynamic-security admin. */
  mqttAccount: { username: string; password: string }
  processes: ClusterProcess[]
}

export type Cluster = {
  dir: string
  /** What is written to <dir>/state.json: each process's role, pid and ports, and the URLs. */
  state: ClusterState
  urls: {
    /** nginx */
    http: string
    ws: string
    /** mosquitto */
    mqtt: string
    /** direct http of each instance */
    servers: string[]
    databaseUrl: string
  }
  /** The MQTT account of the server instances, which is also the dynsec admin (for tools that need it). */
  mqttAccount: { username: string; password: string }
  /** Kill instance i (default SIGKILL). */
  killServer(i: number, signal?: NodeJS.Signals): Promise<void>
  /** (Re)start instance i; resolves when its GET /api/ready answers 200. */
  startServer(i: number): Promise<void>
  /** PostgreSQL: pg_ctl restart -m fast (or stop then start), resolves when it accepts connections. */
  restartPostgres(): Promise<void>
  /** Mosquitto: stop (SIGTERM) and start again with the same config and persistence. */
  restartMosquitto(): Promise<void>
  /** Stops everything this launcher started (servers, nginx, mosquitto, postgres). */
  stop(): Promise<void>
}

/** Another launcher runs on the same folder. */
export class ClusterRunningError extends Error {}

/** Secrets kept across runs in <dir>/secrets.json (mode 0600), so tokens and devices survive a restart. */
type Secrets = {
  JWT_SECRET: string
  DEVICE_SECRET_KEY: string
  FILE_LINK_SECRET: string
  MQTT_HOOK_SECRET: string
  mqttAdminPassword: string
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const isRoot = () => process.getuid?.() === 0

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(port, '127.0.0.1', () => s.close(() => resolve(true)))
    s.on('error', () => resolve(false))
  })
}

/** The port of last run when it is still free (bookmarks and tools keep working), else a free one. */
async function keptPort(previous: number | undefined): Promise<number> {
  if (previous && (await portFree(previous))) return previous
  return freePort()
}

/**
 * Whether a process runs. A zombie does not: an exited process nobody reaped yet, as a postmaster
 * (started through pg_ctl, then orphaned) stays in a container whose pid 1 does not reap.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return true // no /proc: kill(0) is all we know
  }
}

/** Polls `check` every `everyMs` until it is true; throws `what` after `ms`, or when `signal` aborts. */
async function until(
  check: () => Promise<boolean> | boolean,
  ms: number,
  what: () => string,
  everyMs = 100,
  signal?: AbortSignal,
) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    signal?.throwIfAborted()
    if (await check()) return
    await sleep(everyMs)
  }
  throw new Error(what())
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    s.once('connect', () => {
      s.destroy()
      resolve(true)
    })
    s.once('error', () => resolve(false))
  })
}

const answers200 = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) })
    .then((r) => r.status === 200)
    .catch(() => false) // not listening yet

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T
  } catch {
    return null
  }
}

function loadSecrets(dir: string): Secrets {
  const file = path.join(dir, 'secrets.json')
  const kept = readJson<Secrets>(file)
  if (kept) return kept
  const s = (): string => crypto.randomBytes(32).toString('hex')
  const secrets: Secrets = {
    JWT_SECRET: s(),
    DEVICE_SECRET_KEY: s(),
    FILE_LINK_SECRET: s(),
    MQTT_HOOK_SECRET: s(),
    mqttAdminPassword: s(),
  }
  fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 })
  return secrets
}

/**
 * Refuses when another launcher lives on this folder; otherwise ends what a launcher that was
 * killed outright (SIGKILL, a crash) left running, so its ports and data folders are free again.
 * A pid is only killed when its command line still names this folder (pids are reused).
 */
async function takeOver(dir: string, log: (line: string) => void): Promise<ClusterState | null> {
  const previous = readJson<ClusterState>(path.join(dir, 'state.json'))
  if (!previous) return null
  if (previous.launcherPid !== process.pid && alive(previous.launcherPid)) {
    throw new ClusterRunningError(
      `A cluster is already running from ${dir} (launcher pid ${previous.launcherPid}, ${previous.urls.http}). ` +
        'Stop it first (Ctrl-C in its terminal, or kill -TERM that pid).',
    )
  }
  const killed: number[] = []
  for (const p of previous.processes) {
    if (!p.running || !alive(p.pid)) continue
    let cmdline = ''
    try {
      cmdline = fs.readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
    } catch {
      continue
    }
    const ours = cmdline.includes(dir) || (p.role === 'server' && cmdline.includes(SERVER_MAIN))
    if (!ours) continue
    log(`stopping ${p.name} (pid ${p.pid}) left over by a previous launcher`)
    try {
      // Fast shutdowns: postgres on SIGINT; nginx on SIGTERM (a SIGKILL would orphan its workers).
      process.kill(p.pid, p.role === 'postgres' ? 'SIGINT' : p.role === 'server' ? 'SIGKILL' : 'SIGTERM')
      killed.push(p.pid)
    } catch {
      // gone meanwhile
    }
  }
  await until(
    () => killed.every((pid) => !alive(pid)),
    30_000,
    () => `processes left over by a previous launcher do not stop: ${killed.filter(alive).join(', ')}`,
  )
  return previous
}

/** The newest installed PostgreSQL's bin folder (Debian: /usr/lib/postgresql/<major>/bin). */
export function postgresBin(): string | null {
  const base = '/usr/lib/postgresql'
  if (!fs.existsSync(base)) return null
  const version = fs.readdirSync(base).sort((a, b) => Number(b) - Number(a))[0]
  const bin = version ? path.join(base, version, 'bin') : ''
  return bin && fs.existsSync(path.join(bin, 'initdb')) ? bin : null
}

/** What the cluster needs from Debian's packages and is missing here (empty when it can start). */
export function missingBinaries(): string[] {
  const missing: string[] = []
  if (!postgresBin()) missing.push('postgresql')
  if (!fs.existsSync(MOSQUITTO) || !fs.existsSync(DYNSEC_PLUGIN) || !hasCommand('mosquitto_ctrl'))
    missing.push('mosquitto')
  if (!fs.existsSync(NGINX)) missing.push('nginx')
  return missing
}

function hasCommand(name: string): boolean {
  return (process.env.PATH ?? '').split(':').some((d) => d && fs.existsSync(path.join(d, name)))
}

/** Gives a folder to a system user when we are root (initdb refuses root; mosquitto drops to its user). */
function giveTo(user: string, target: string) {
  if (isRoot()) execFileSync('chown', ['-R', `${user}:`, target])
}

/** Runs a PostgreSQL binary, as the postgres user when we are root. */
function asPostgres(bin: string, args: string[]) {
  const [cmd, ...rest] = isRoot() ? ['runuser', '-u', 'postgres', '--', bin, ...args] : [bin, ...args]
  return execFileSync(cmd as string, rest, { stdio: 'pipe', encoding: 'utf8' })
}

function nginxConf(dir: string, port: number, upstreams: number[]): string {
  const n = path.join(dir, 'nginx')
  const logs = path.join(dir, 'logs')
  return `# Generated by \`npm run cluster\` (apps/server/src/tools/cluster/launch.ts) on every start; edits are lost.
# The same proxying as docs/deploy.md's nginx section, on plain HTTP and one machine.
${isRoot() ? 'user root;\n' : ''}daemon off;
worker_processes auto;
pid ${n}/nginx.pid;
error_log ${logs}/nginx-error.log warn;

events {
    worker_connections 4096;
}

http {
    access_log ${logs}/nginx-access.log;
    client_body_temp_path ${n}/tmp/body;
    proxy_temp_path ${n}/tmp/proxy;
    fastcgi_temp_path ${n}/tmp/fastcgi;
    uwsgi_temp_path ${n}/tmp/uwsgi;
    scgi_temp_path ${n}/tmp/scgi;

    upstream aedcloud {
        # No stickiness: tokens are signed with the shared JWT_SECRET, and the live channel fans
        # out through LISTEN/NOTIFY.
${upstreams.map((p) => `        server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
        keepalive 32;
    }

    # WebSocket: pass the Upgrade through; plain requests keep the upstream keep-alive.
    map $http_upgrade $connection_upgrade {
        default upgrade;
        ''      '';
    }

    server {
        listen 127.0.0.1:${port};
        # Images are up to 20 MB (the console refuses more); imports a little more.
        client_max_body_size 25m;

        # Inherited by the locations below, none of which sets headers of its own.
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_connect_timeout 5s;

        location / {
            proxy_pass http://aedcloud;
            proxy_read_timeout 120s;
            # A killed instance refuses connections, one whose database link is down answers 503:
            # the request goes to the other one (a POST only if it was not sent yet).
            proxy_next_upstream error timeout http_502 http_503;
        }

        # Device messages are stored once per id, so a POST may go to the other instance too.
        location /device-api/ {
            proxy_pass http://aedcloud;
            proxy_read_timeout 120s;
            proxy_next_upstream error timeout http_502 http_503 non_idempotent;
        }

        # The live channel: a long-lived WebSocket.
        location = ${LIVE_PATH} {
            proxy_pass http://aedcloud;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            proxy_buffering off;
            proxy_next_upstream error timeout http_503;
        }
    }
}
`
}

function mosquittoConf(dir: string, port: number): string {
  const m = path.join(dir, 'mosquitto')
  return `# Generated by \`npm run cluster\` (apps/server/src/tools/cluster/launch.ts) on every start; edits are lost.
per_listener_settings false
persistence true
persistence_location ${m}/
autosave_interval 60
# The servers' persistent sessions (clean session 0) keep what no instance has stored yet.
max_queued_messages 100000
# The broker's window toward each client: a server connection stores up to 256 messages at once.
max_inflight_messages 1000
persistent_client_expiration 7d

# Devices and the server instances. Accounts and ACLs: the dynamic-security plugin, whose admin
# is the servers' account (MQTT_AUTH=mosquitto-dynsec keeps the devices in step with the register).
listener ${port} 127.0.0.1
allow_anonymous false
plugin ${DYNSEC_PLUGIN}
plugin_opt_config_file ${m}/dynamic-security.json

log_dest stderr
log_type error
log_type warning
log_type notice
log_type information
connection_messages true
`
}

/**
 * Creates the dynamic-security file once, with the servers' account as its admin. The admin may
 * only publish to $CONTROL: the servers give their account its role on the device topics, and each
 * device its account, through that API (MQTT_AUTH=mosquitto-dynsec).
 */
function initDynsec(file: string, password: string) {
  if (fs.existsSync(file)) return
  execFileSync('mosquitto_ctrl', ['dynsec', 'init', file, MQTT_ADMIN, password], { stdio: 'pipe' })
}

/** Starts PostgreSQL, Mosquitto, the server instances and nginx; stops what it started if a step fails. */
export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const log = opts.log ?? ((line: string) => console.log(line))
  const dir = path.resolve(opts.dir)
  const count = opts.servers ?? 2
  const seedDemo = opts.seedDemo ?? true
  const missing = missingBinaries()
  if (missing.length)
    throw new Error(`The cluster needs Debian's ${missing.join(', ')}: apt-get install ${missing.join(' ')}`)
  fs.mkdirSync(dir, { recursive: true })
  const previous = await takeOver(dir, log)
  const logs = path.join(dir, 'logs')
  fs.mkdirSync(logs, { recursive: true })
  const secrets = loadSecrets(dir)
  const mqttAccount = { username: MQTT_ADMIN, password: secrets.mqttAdminPassword }
  const portOf = (name: string, key: string) => previous?.processes.find((p) => p.name === name)?.ports[key]

  const state: ClusterState = {
    started: new Date().toISOString(),
    dir,
    launcherPid: process.pid,
    urls: { http: '', ws: '', mqtt: '', servers: [], databaseUrl: '' },
    mqttAccount,
    processes: [],
  }
  const writeState = () =>
    fs.writeFileSync(path.join(dir, 'state.json'), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 })
  const record = (p: ClusterProcess) => {
    const i = state.processes.findIndex((q) => q.name === p.name)
    if (i >= 0) state.processes[i] = p
    else state.processes.push(p)
    writeState()
  }
  const setRunning = (name: string, running: boolean) => {
    const p = state.processes.find((q) => q.name === name)
    if (p && p.running !== running) {
      p.running = running
      writeState()
    }
  }

  // Children in their own process groups: Ctrl-C reaches the launcher only, which stops them in
  // order (servers before the database they are writing to).
  const children = new Map<string, ChildProcess>()
  let stopping = false
  const spawnLogged = (name: string, cmd: string, args: string[], env?: NodeJS.ProcessEnv, cwd?: string) => {
    const file = path.join(logs, `${name}.log`)
    const out = fs.openSync(file, 'a')
    fs.writeSync(out, `\n--- ${new Date().toISOString()} ${cmd} ${args.join(' ')}\n`)
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', out, out], detached: true })
    fs.closeSync(out)
    children.set(name, child)
    child.once('exit', (code, signal) => {
      if (children.get(name) === child) {
        children.delete(name)
        setRunning(name, false)
        if (!stopping) log(`${name} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); see ${file}`)
      }
    })
    return { child, file }
  }
  const waitExit = async (child: ChildProcess, ms: number) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((r) => child.once('exit', () => r()))
    await Promise.race([exited, sleep(ms)])
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await exited
    }
  }

  // PostgreSQL ----------------------------------------------------------------------------
  const bin = postgresBin() as string
  const pgData = path.join(dir, 'pg')
  const pgPort = await keptPort(portOf('postgres', 'postgres'))
  const pgLog = path.join(logs, 'postgres.log')
  // A development cluster: no socket file, a few more connections than the default (each instance
  // pools 10 plus its LISTEN connection), and commits that do not wait for the disk.
  const pgOptions = [
    `-p ${pgPort}`,
    '-c listen_addresses=127.0.0.1',
    "-c unix_socket_directories=''",
    '-c max_connections=200',
    '-c shared_buffers=256MB',
    '-c synchronous_commit=off',
  ].join(' ')
  const databaseUrl = `postgres://postgres@127.0.0.1:${pgPort}/aedcloud`
  const postmasterPid = () =>
    Number(fs.readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n')[0])
  const acceptsConnections = async () => {
    const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${pgPort}/postgres` })
    c.on('error', () => {})
    try {
      await c.connect()
      await c.query('SELECT 1')
      return true
    } catch {
      return false
    } finally {
      await c.end().catch(() => {})
    }
  }
  const startPostgres = async () => {
    if (!fs.existsSync(pgLog)) fs.writeFileSync(pgLog, '')
    giveTo('postgres', pgLog)
    asPostgres(path.join(bin, 'pg_ctl'), [
      '-D',
      pgData,
      '-o',
      pgOptions,
      '-l',
      pgLog,
      '-w',
      '-t',
      '60',
      'start',
    ])
    await until(acceptsConnections, 30_000, () => `PostgreSQL does not accept connections; see ${pgLog}`)
    record({
      role: 'postgres',
      name: 'postgres',
      pid: postmasterPid(),
      ports: { postgres: pgPort },
      running: true,
      log: pgLog,
    })
  }
  let pgStarted = false
  const stopPostgres = () => {
    if (!pgStarted) return
    try {
      asPostgres(path.join(bin, 'pg_ctl'), ['-D', pgData, '-m', 'fast', '-w', '-t', '60', 'stop'])
    } catch {
      // not running
    }
    pgStarted = false
    setRunning('postgres', false)
  }

  // Mosquitto -----------------------------------------------------------------------------
  const mqttPort = await keptPort(portOf('mosquitto', 'mqtt'))
  const mosquittoDir = path.join(dir, 'mosquitto')
  const startMosquitto = async () => {
    const { child, file } = spawnLogged('mosquitto', MOSQUITTO, [
      '-c',
      path.join(mosquittoDir, 'mosquitto.conf'),
    ])
    await until(
      () => canConnect(mqttPort),
      15_000,
      () =>
        child.exitCode !== null
          ? `Mosquitto exited (${child.exitCode}); see ${file}`
          : `Mosquitto does not listen; see ${file}`,
    )
    record({
      role: 'mosquitto',
      name: 'mosquitto',
      pid: child.pid as number,
      ports: { mqtt: mqttPort },
      running: true,
      log: file,
    })
  }

  // Servers -------------------------------------------------------------------------------
  const serverPorts: number[] = []
  for (let i = 0; i < count; i++) {
    let port = await keptPort(portOf(`server-${i}`, 'http'))
    while (serverPorts.includes(port) || port === pgPort || port === mqttPort) port = await freePort()
    serverPorts.push(port)
  }
  const nginxPort = opts.port === 0 ? await freePort() : (opts.port ?? 8000)
  if (!(await portFree(nginxPort)))
    throw new Error(`Port ${nginxPort} is in use: set CLUSTER_PORT to another port (0 picks a free one).`)
  const http = `http://127.0.0.1:${nginxPort}`
  state.urls = {
    http,
    ws: `ws://127.0.0.1:${nginxPort}${LIVE_PATH}`,
    mqtt: `mqtt://127.0.0.1:${mqttPort}`,
    servers: serverPorts.map((p) => `http://127.0.0.1:${p}`),
    databaseUrl,
  }
  const dataDir = path.join(dir, 'data')
  const serverEnv = (i: number): Record<string, string> => {
    const base: Record<string, string> = {
      PORT: String(serverPorts[i]),
      HOST: '127.0.0.1',
      PUBLIC_URL: http,
      // Shared by every instance: uploads through one are read through the other.
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SEED_DEMO: String(seedDemo),
      JWT_SECRET: secrets.JWT_SECRET,
      DEVICE_SECRET_KEY: secrets.DEVICE_SECRET_KEY,
      FILE_LINK_SECRET: secrets.FILE_LINK_SECRET,
      MQTT_URL: `mqtt://127.0.0.1:${mqttPort}`,
      MQTT_AUTH: 'mosquitto-dynsec',
      MQTT_USERNAME: mqttAccount.username,
      MQTT_PASSWORD: mqttAccount.password,
      MQTT_CLIENT_ID: `aedcloud-${i}`,
      MQTT_HOOK_SECRET: secrets.MQTT_HOOK_SECRET,
      MQTT_PORT: '0',
      MQTT_TLS_PORT: '0',
      ...opts.env,
    }
    return opts.serverEnv ? opts.serverEnv(i, base) : base
  }
  const startServer = async (i: number, timeoutMs = 120_000) => {
    if (i < 0 || i >= count) throw new Error(`no server instance ${i} (there are ${count})`)
    const name = `server-${i}`
    const running = children.get(name)
    if (running) throw new Error(`${name} is running (pid ${running.pid})`)
    const env = serverEnv(i)
    const { child, file } = spawnLogged(
      name,
      process.execPath,
      ['--import', 'tsx', SERVER_MAIN],
      { ...process.env, ...env },
      SERVER_ROOT,
    )
    const base = `http://127.0.0.1:${env.PORT}`
    await until(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`${name} exited (${child.signalCode ?? `code ${child.exitCode}`}); see ${file}`)
        return answers200(`${base}/api/ready`)
      },
      timeoutMs,
      () => `${name} did not become ready (GET ${base}/api/ready); see ${file}`,
      200,
      opts.signal,
    )
    record({
      role: 'server',
      name,
      pid: child.pid as number,
      ports: { http: Number(env.PORT) },
      running: true,
      log: file,
    })
  }
  const killServer = async (i: number, signal: NodeJS.Signals = 'SIGKILL') => {
    const child = children.get(`server-${i}`)
    if (!child) return
    const exited = new Promise<void>((r) => child.once('exit', () => r()))
    child.kill(signal)
    await exited
  }

  // nginx ---------------------------------------------------------------------------------
  const nginxDir = path.join(dir, 'nginx')
  const startNginx = async () => {
    const { child, file } = spawnLogged('nginx', NGINX, [
      '-p',
      nginxDir,
      '-c',
      'nginx.conf',
      '-e',
      path.join(logs, 'nginx-error.log'),
    ])
    await until(
      async () => {
        if (child.exitCode !== null)
          throw new Error(`nginx exited (${child.exitCode}); see ${file} and ${logs}/nginx-error.log`)
        return answers200(`${http}/api/ready`)
      },
      15_000,
      () => `nginx does not answer at ${http}; see ${logs}/nginx-error.log`,
    )
    record({
      role: 'nginx',
      name: 'nginx',
      pid: child.pid as number,
      ports: { http: nginxPort },
      running: true,
      log: file,
    })
  }

  const stop = async () => {
    if (stopping) return
    stopping = true
    process.off('exit', emergencyStop)
    const servers = [...children].filter(([n]) => n.startsWith('server-')).map(([, c]) => c)
    // Servers first, gracefully (they finish what they store), then the front and the broker.
    for (const c of servers) c.kill('SIGTERM')
    await Promise.all(servers.map((c) => waitExit(c, 15_000)))
    for (const name of ['nginx', 'mosquitto']) {
      const c = children.get(name)
      if (!c) continue
      // SIGTERM: nginx's fast shutdown (SIGQUIT would wait for open WebSockets).
      c.kill('SIGTERM')
      await waitExit(c, 10_000)
    }
    for (const c of children.values()) c.kill('SIGKILL')
    stopPostgres()
    for (const p of state.processes) p.running = false
    writeState()
  }
  // If the launcher's process ends without stop() (an uncaught error), it takes its children along.
  const emergencyStop = () => {
    // nginx's workers outlive a master killed outright: nginx and Mosquitto get SIGTERM.
    for (const [name, c] of children) c.kill(name.startsWith('server-') ? 'SIGKILL' : 'SIGTERM')
    if (pgStarted) {
      try {
        asPostgres(path.join(bin, 'pg_ctl'), ['-D', pgData, '-m', 'immediate', 'stop'])
      } catch {
        // not running
      }
    }
  }
  process.once('exit', emergencyStop)

  const t0 = Date.now()
  const took = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`
  try {
    if (!fs.existsSync(path.join(pgData, 'PG_VERSION'))) {
      log(`initdb ${pgData}`)
      fs.mkdirSync(pgData, { recursive: true, mode: 0o700 })
      giveTo('postgres', pgData)
      asPostgres(path.join(bin, 'initdb'), [
        '-D',
        pgData,
        '--auth=trust',
        '-U',
        'postgres',
        '--encoding=UTF8',
        '--locale=C',
      ])
    }
    // A postmaster a killed launcher left behind was sent SIGINT by takeOver(): wait until it is gone.
    await until(
      () => !fs.existsSync(path.join(pgData, 'postmaster.pid')) || !alive(postmasterPid()),
      30_000,
      () => `a previous PostgreSQL on ${pgData} does not stop`,
    )
    pgStarted = true
    await startPostgres()
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${pgPort}/postgres` })
    await admin.connect()
    try {
      const have = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'aedcloud'")
      if (!have.rowCount) await admin.query('CREATE DATABASE aedcloud')
    } finally {
      await admin.end()
    }
    log(`postgres  pid ${postmasterPid()}  ${databaseUrl}  (${took()})`)

    opts.signal?.throwIfAborted()
    fs.mkdirSync(mosquittoDir, { recursive: true })
    fs.writeFileSync(path.join(mosquittoDir, 'mosquitto.conf'), mosquittoConf(dir, mqttPort))
    initDynsec(path.join(mosquittoDir, 'dynamic-security.json'), secrets.mqttAdminPassword)
    // Mosquitto drops root for its own user, which then writes its persistence and the dynsec file.
    giveTo('mosquitto', mosquittoDir)
    await startMosquitto()
    log(`mosquitto pid ${children.get('mosquitto')?.pid}  ${state.urls.mqtt}  (${took()})`)

    opts.signal?.throwIfAborted()
    // Instance 0 alone first: on an empty database it migrates and seeds, and the others find it done.
    await startServer(0, opts.readyTimeoutMs ?? 600_000)
    log(`server-0  pid ${children.get('server-0')?.pid}  ${state.urls.servers[0]}  (${took()})`)
    await Promise.all(Array.from({ length: count - 1 }, (_, k) => startServer(k + 1)))
    for (let i = 1; i < count; i++)
      log(`server-${i}  pid ${children.get(`server-${i}`)?.pid}  ${state.urls.servers[i]}  (${took()})`)

    opts.signal?.throwIfAborted()
    fs.mkdirSync(path.join(nginxDir, 'tmp'), { recursive: true })
    fs.writeFileSync(path.join(nginxDir, 'nginx.conf'), nginxConf(dir, nginxPort, serverPorts))
    await startNginx()
    log(`nginx     pid ${children.get('nginx')?.pid}  ${http}  (${took()})`)
  } catch (e) {
    await stop()
    throw e
  }

  return {
    dir,
    state,
    urls: state.urls,
    mqttAccount,
    killServer,
    startServer: (i) => startServer(i),
    restartPostgres: async () => {
      asPostgres(path.join(bin, 'pg_ctl'), ['-D', pgData, '-m', 'fast', '-w', '-t', '60', 'stop'])
      setRunning('postgres', false)
      await startPostgres()
    },
    restartMosquitto: async () => {
      const c = children.get('mosquitto')
      if (c) {
        children.delete('mosquitto')
        c.kill('SIGTERM')
        await waitExit(c, 10_000)
        setRunning('mosquitto', false)
      }
      await startMosquitto()
    },
    stop,
  }
}
