// `npx tsx apps/server/src/tools/bench/dynsec.ts [--sizes 1000,2000,4000] [--file 20000] [--marginal 5000,10000,20000]`
// MQTT_AUTH=mosquitto-dynsec at scale, against a real Mosquitto 2 with its dynamic security
// plugin (a temp folder, a free port): how long a reconcile takes to create N devices through
// $CONTROL on an empty broker (each size from empty), and, for --file, writing the plugin's file
// for that many devices offline, starting the broker on it and the reconcile that follows (it
// must find nothing to do). --marginal: a broker loaded from a file with that many devices, then
// 100 more through $CONTROL: what one command costs at that size, and from those costs what a
// reconcile from empty to the largest size would take (the sum of the costs at each size on the
// way). Synthetic serials and secrets: the broker's side is what is measured.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { connectAsync } from 'mqtt'
import { newDeviceSecret } from '../../lib/sealed.ts'
import { dynsecLogin } from '../../modules/gateway/mqtt-auth.ts'
import { listAll } from '../../modules/gateway/mqtt-dynsec.service.ts'
import {
  accountsOf,
  type BrokerClient,
  type BrokerRole,
  type Registered,
  reconcilePlan,
  serialCommands,
} from '../../modules/gateway/mqtt-dynsec.ts'
import { connectDynsecControl } from '../../modules/gateway/mqtt-dynsec-control.ts'
import { dynsecFile } from '../../modules/gateway/mqtt-dynsec-file.ts'

const ADMIN = { username: 'aedcloud', password: 'bench-admin-password' }
const PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so'

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

/** A broker on `file` (made by `mosquitto_ctrl dynsec init` unless it exists). */
async function broker(dir: string, file: string) {
  if (!fs.existsSync(file)) {
    const r = spawnSync('mosquitto_ctrl', ['dynsec', 'init', file, ADMIN.username, ADMIN.password])
    if (r.status !== 0) throw new Error(`dynsec init: ${r.stderr}`)
  }
  const port = await freePort()
  const conf = path.join(dir, 'mosquitto.conf')
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `user ${os.userInfo().username}`,
      `plugin ${PLUGIN}`,
      `plugin_opt_config_file ${file}`,
      '',
    ].join('\n'),
  )
  const started = Date.now()
  const child: ChildProcess = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' })
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy()
        resolve(true)
      })
      s.on('error', () => resolve(false))
    })
    if (up) break
    if (Date.now() - started > 120_000) throw new Error('mosquitto did not start')
    await new Promise((r) => setTimeout(r, 50))
  }
  const url = `mqtt://127.0.0.1:${port}`
  return {
    url,
    startMs: Date.now() - started,
    control: () => connectDynsecControl({ url, clientId: `bench-${process.pid}`, ...ADMIN }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

const serials = (n: number): Registered[] =>
  Array.from({ length: n }, (_, i) => ({
    sn: `B64${String(i).padStart(8, '0')}`,
    secrets: [newDeviceSecret()],
  }))

/** The reconcile as the server runs it, minus the register's read: list, plan, send. */
async function reconcile(control: ReturnType<typeof connectDynsecControl>, registered: Registered[]) {
  const t0 = Date.now()
  const clients = await listAll<BrokerClient>(control, 'listClients', 'clients')
  const roles = await listAll<BrokerRole>(control, 'listRoles', 'roles')
  const listed = Date.now()
  const plan = reconcilePlan(registered, clients, roles)
  const answers = await control.send(plan.commands)
  return {
    listMs: listed - t0,
    totalMs: Date.now() - t0,
    commands: plan.commands.length,
    failed: answers.filter((a) => a.error).length,
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,2000,4000' },
      file: { type: 'string', default: '20000' },
      marginal: { type: 'string', default: '' },
    },
  })
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-dynsec-bench-'))
  try {
    for (const n of values.sizes.split(',').filter(Boolean).map(Number)) {
      const dir = fs.mkdtempSync(path.join(root, `control-${n}-`))
      const b = await broker(dir, path.join(dir, 'dynsec.json'))
      const control = b.control()
      const r = await reconcile(control, serials(n))
      console.log(
        `$CONTROL: ${n} devices on an empty broker: ${r.commands} commands in ${(r.totalMs / 1000).toFixed(1)} s ` +
          `(${(r.totalMs / r.commands) | 0} ms a command on average), ${r.failed} failed`,
      )
      await control.close()
      await b.stop()
    }
    const n = Number(values.file)
    if (n > 0) {
      const dir = fs.mkdtempSync(path.join(root, 'file-'))
      const file = path.join(dir, 'dynsec.json')
      await (await broker(dir, file)).stop()
      const registered = serials(n)
      const t0 = Date.now()
      const written = dynsecFile(JSON.parse(fs.readFileSync(file, 'utf8')), registered)
      fs.writeFileSync(file, JSON.stringify(written))
      const fileMs = Date.now() - t0
      const b = await broker(dir, file)
      const control = b.control()
      const r = await reconcile(control, registered)
      const sample = registered[n - 1]
      const device = await connectAsync(b.url, {
        clientId: sample.sn,
        ...dynsecLogin(sample.secrets[0], sample.sn),
        protocolVersion: 4,
        reconnectPeriod: 0,
      })
      await device.endAsync()
      // One device more, as a registration's change applies it (its role and account), then gone.
      const one = serials(1).map((x) => ({ ...x, sn: 'B64ONE00001' }))[0]
      const t1 = Date.now()
      const added = await control.send(serialCommands(one.sn, accountsOf(one), []))
      const addMs = Date.now() - t1
      const t2 = Date.now()
      await control.send(serialCommands(one.sn, [], one.secrets))
      const deleteMs = Date.now() - t2
      console.log(
        `then one registration (${added.length} commands): ${addMs} ms, its deletion: ${deleteMs} ms`,
      )
      console.log(
        `file: ${n} devices written in ${(fileMs / 1000).toFixed(1)} s (${(fs.statSync(file).size / 1e6).toFixed(1)} MB), ` +
          `broker started on it in ${(b.startMs / 1000).toFixed(1)} s, reconcile after it ${(r.totalMs / 1000).toFixed(1)} s ` +
          `(listing ${(r.listMs / 1000).toFixed(1)} s, ${r.commands} commands); the last device connects`,
      )
      await control.close()
      await b.stop()
    }
    const marginal = values.marginal.split(',').filter(Boolean).map(Number)
    const costs: { size: number; ms: number }[] = []
    for (const size of marginal) {
      const dir = fs.mkdtempSync(path.join(root, `marginal-${size}-`))
      const file = path.join(dir, 'dynsec.json')
      await (await broker(dir, file)).stop()
      fs.writeFileSync(
        file,
        JSON.stringify(dynsecFile(JSON.parse(fs.readFileSync(file, 'utf8')), serials(size))),
      )
      const b = await broker(dir, file)
      const control = b.control()
      const more = serials(100).map((x, i) => ({ ...x, sn: `M64${String(i).padStart(8, '0')}` }))
      const commands = more.flatMap((x) => serialCommands(x.sn, accountsOf(x), []))
      const t0 = Date.now()
      await control.send(commands)
      const ms = (Date.now() - t0) / commands.length
      costs.push({ size, ms })
      console.log(`marginal: at ${size} devices one command takes ${ms.toFixed(1)} ms`)
      await control.close()
      await b.stop()
    }
    if (costs.length > 1) {
      // Between two measured sizes the cost grows linearly; from empty to the first, from 0.
      let total = 0
      let prev = { size: 0, ms: 0 }
      for (const c of costs) {
        total += ((c.size - prev.size) * 2 * (prev.ms + c.ms)) / 2
        prev = c
      }
      console.log(
        `marginal: a reconcile from empty to ${prev.size} devices (2 commands each) ≈ ${(total / 60_000).toFixed(0)} min`,
      )
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
  process.exit(0)
}

await main()
