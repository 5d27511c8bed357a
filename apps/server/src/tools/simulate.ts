// `npm run simulate -- --devices N --cabinets C --minutes M [--http|--mqtt] [--rate R] [--url URL] [--speed X]
// [--calls R] [--responders]`:
// drives devices of the server's factory list like a real network (hello, heartbeats with a
// slowly draining battery, a daily self-test, failed self-tests, expiring pads, a device carried
// away, a device going silent, rescues with their usage steps and ECG upload, and the commands
// that come back) and the rescue cabinets (self-checks, doors that open and close, an AED taken
// out and brought back, unlock and siren), over signed HTTPS or MQTT, and prints what was sent and acknowledged and how
// fast. Serials and secrets come from the server's API (signed in as the demo system super
// administrator), so it works alike on PGlite and PostgreSQL. See docs/device-protocol.md.
// With --calls, emergency calls come in near the network's AEDs; with --responders, the alerted
// responders' phones (their SMS read back from a DEV_SMS_OUTBOX server) answer and walk there
// (tools/fleet/calls.ts).
import { parseArgs } from 'node:util'
import { loadConfig } from '../config.ts'
import { DEMO_PASSWORD, demoMembers } from '../seed/seed.ts'
import { callsApi } from './fleet/call-api.ts'
import { ACCEPT_SHARE, type CallSite } from './fleet/call-model.ts'
import { callStatsLines, createCalls } from './fleet/calls.ts'
import { type FleetCabinet, loadCabinets, loadFleet, loadSites, signIn } from './fleet/fleet-api.ts'
import { runFleet } from './fleet/runner.ts'
import { httpTransport, mqttTransport } from './fleet/transports.ts'

const { values: a } = parseArgs({
  options: {
    devices: { type: 'string', default: '100' },
    cabinets: { type: 'string', default: '60' },
    'door-s': { type: 'string', default: '60' },
    minutes: { type: 'string', default: '5' },
    mqtt: { type: 'boolean', default: false },
    http: { type: 'boolean', default: false },
    rate: { type: 'string' },
    url: { type: 'string' },
    'mqtt-url': { type: 'string' },
    'mqtt-auth': { type: 'string' },
    speed: { type: 'string', default: '60' },
    heartbeat: { type: 'string' },
    seed: { type: 'string', default: '1' },
    events: { type: 'string', default: '1' },
    workers: { type: 'string' },
    calls: { type: 'string', default: '0' },
    responders: { type: 'boolean', default: false },
    integrator: { type: 'string' },
    accept: { type: 'string', default: String(ACCEPT_SHARE) },
    'aed-used': { type: 'string', default: '0.5' },
    'close-min': { type: 'string', default: '15' },
    phone: { type: 'string', default: demoMembers[0].phone },
    password: { type: 'string', default: DEMO_PASSWORD },
    help: { type: 'boolean', default: false },
  },
})

if (a.help) {
  console.log(`npm run simulate -- [options]
  --devices N      devices to drive (registered ones first; default 100)
  --cabinets C     rescue cabinets to drive (bound ones first; default 60, 0 for none)
  --door-s S       how long an opened cabinet door stays open, real seconds (default 60)
  --minutes M      how long to run (default 5)
  --http | --mqtt  transport (default http)
  --rate R         total messages per second (token bucket); heartbeats are paced to reach it
  --url URL        the server (default http://127.0.0.1:$PORT, PORT from the environment or 8080)
  --mqtt-url URL   the broker (default mqtt://<url host>:$MQTT_PORT, 1883)
  --mqtt-auth A    hmac: a one-time password per CONNECT (the platform's broker, EMQX);
                   dynsec: each device's static Mosquitto account (MQTT_AUTH=mosquitto-dynsec);
                   auto (default): dynsec if the broker takes the first device's account
  --speed X        model seconds per real second (default 60: a day passes in 24 minutes)
  --heartbeat S    heartbeat interval in model seconds (default 3600, or from --rate)
  --seed S         seed of the devices' behaviour (default 1)
  --events F       multiplies the chances of a fault (4% of devices per run), a silent spell (3%),
                   a move (2%), a rescue (1%), expiring pads (4%), a cabinet door opening (15%:
                   an orange alarm; a third of them take the AED out and bring it back);
                   e.g. 10 for a lively demo.
                   A silent device is marked offline after 3 report intervals + 5 min (8 min at
                   the shortest interval, 60 s): run 10 minutes or more to see it.
  --workers W      requests in flight at most (default min(64, devices))
  --phone / --password  the system super administrator to read the devices with (demo default)

emergency calls and responders (watch them on 急救事件, /emergency/call):
  --calls R        emergency calls an hour of model time (default 0: none), each at a random point
                   within 300 m of a random registered AED, recorded as the signed-in member
                   (登记呼救); the server dispatches the responders around it
  --integrator KEY:SECRET  record the calls by the open API instead (a service configuration's
                   access token and secret, 开放接口): near that organisation's AEDs
  --responders     drive the alerted responders' phones: each opens its SMS link after 10-40 s,
                   accepts (--accept, default 0.7) or declines, walks at about 2.3 m/s by its AED
                   to the patient sharing its position every 15 s, and reports arriving. Needs the
                   server started with DEV_SMS_OUTBOX=1 (the phones read their SMS back from it).
                   Works for calls recorded by hand in the console too
  --aed-used P     chance that the first AED brought to a patient is used: it reports a rescue a
                   minute later, which the call links to (default 0.5; the AED must be among
                   --devices)
  --close-min M    model minutes after a call that the simulated dispatcher closes it, once no
                   responder is still on the way (default 15; 0 leaves calls open)
  Times are model time: at the default speed a phone walks a minute every real second while the
  server's answer deadlines and phases keep real time. --speed 1 shows a rescue as it happens:
    npm run simulate -- --devices 200 --calls 30 --responders --speed 1 --minutes 30`)
  process.exit(0)
}

const num = (v: string | undefined, name: string, min: number) => {
  const n = Number(v)
  if (!Number.isFinite(n) || n < min) {
    console.error(`--${name} must be a number >= ${min}`)
    process.exit(2)
  }
  return n
}

async function main() {
  let config: ReturnType<typeof loadConfig> | null = null
  try {
    config = loadConfig()
  } catch {}
  const port = config?.PORT ?? 8080
  const base = a.url ?? `http://127.0.0.1:${port}`
  const devicesWanted = num(a.devices, 'devices', 1)
  const minutes = num(a.minutes, 'minutes', 0.05)
  const speed = num(a.speed, 'speed', 0.001)
  const rate = a.rate === undefined ? null : num(a.rate, 'rate', 0.1)
  const callsPerHour = num(a.calls, 'calls', 0)
  const share = (v: string | undefined, name: string) => {
    const n = num(v, name, 0)
    if (n > 1) {
      console.error(`--${name} must be between 0 and 1`)
      process.exit(2)
    }
    return n
  }
  const integrator = a.integrator === undefined ? null : a.integrator.split(':')
  if (integrator && (integrator.length !== 2 || !integrator[0] || !integrator[1])) {
    console.error('--integrator must be KEY:SECRET (the service configuration’s access token and secret)')
    process.exit(2)
  }

  const t0 = performance.now()
  const devices = await loadFleet(base, devicesWanted, { phone: a.phone, password: a.password })
  const installed = devices.filter((d) => d.installation).length
  let cabinets: FleetCabinet[] = []
  try {
    cabinets = await loadCabinets(base, num(a.cabinets, 'cabinets', 0), {
      phone: a.phone,
      password: a.password,
    })
  } catch (e) {
    console.error(`no cabinets: ${e instanceof Error ? e.message : e}`)
  }
  const bound = cabinets.filter((c) => c.bound).length
  console.log(
    `${devices.length} devices (${installed} installed, ${devices.length - installed} stock), ${cabinets.length} cabinets (${bound} with an AED) and their secrets read from ${base} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )
  if (devices.length === 0 && cabinets.length === 0) process.exit(1)
  let calls: ReturnType<typeof createCalls> | null = null
  let via = 'console'
  if (callsPerHour > 0 || a.responders) {
    const login = { phone: a.phone, password: a.password }
    const token = await signIn(base, login)
    const api = callsApi(base, token, integrator ? { key: integrator[0], secret: integrator[1] } : null)
    via = api.via
    let sites: CallSite[] = []
    if (callsPerHour > 0) {
      sites = integrator ? await api.integratorSites() : await loadSites(base, token)
      if (sites.length === 0) {
        console.error('--calls: no registered AED with a place to place calls near')
        process.exit(1)
      }
    }
    calls = createCalls(api, sites, {
      perHour: callsPerHour,
      responders: a.responders,
      seed: num(a.seed, 'seed', 0),
      acceptShare: share(a.accept, 'accept'),
      rescueShare: share(a['aed-used'], 'aed-used'),
      closeMin: num(a['close-min'], 'close-min', 0),
    })
    await calls.ready()
    console.log(
      `calls: ${callsPerHour} an hour of model time near ${sites.length} AEDs (${api.via})${a.responders ? ', responders’ phones driven' : ''}`,
    )
  }
  // With a rate, the heartbeats alone would reach it: each device every N / R real seconds.
  const heartbeatS =
    a.heartbeat !== undefined
      ? num(a.heartbeat, 'heartbeat', 1)
      : rate !== null
        ? ((devices.length + cabinets.length) / rate) * speed
        : 3600
  const workers = a.workers ? num(a.workers, 'workers', 1) : Math.min(64, devices.length + cabinets.length)
  const brokerPort = Number(process.env.MQTT_PORT ?? 1883)
  const mqttAuth = a['mqtt-auth'] ?? 'auto'
  if (mqttAuth !== 'hmac' && mqttAuth !== 'dynsec' && mqttAuth !== 'auto') {
    console.error('--mqtt-auth must be hmac, dynsec or auto')
    process.exit(2)
  }
  const transport = a.mqtt
    ? mqttTransport(
        base,
        a['mqtt-url'] ?? `mqtt://${new URL(base).hostname}:${brokerPort}`,
        workers,
        mqttAuth,
      )
    : httpTransport(base, workers)
  console.log(
    `${transport.name}: ${minutes} min at speed ${speed} (a model day every ${(1440 / speed).toFixed(1)} min), heartbeat every ${(heartbeatS / speed).toFixed(1)} s real${rate ? `, rate ${rate}/s` : ''}`,
  )
  const stats = await runFleet(
    devices,
    transport,
    {
      minutes,
      speed,
      rate,
      heartbeatS,
      seed: num(a.seed, 'seed', 0),
      events: num(a.events, 'events', 0),
      workers,
      progressS: 5,
      doorOpenS: num(a['door-s'], 'door-s', 1),
    },
    cabinets,
    calls?.companion,
  )
  await transport.close()
  const secs = (performance.now() - stats.started) / 1000
  console.log(
    [
      '',
      `done in ${secs.toFixed(1)} s (${transport.name}, ${devices.length} devices, ${cabinets.length} cabinets)`,
      `  sent         ${stats.sent}`,
      `  acknowledged ${stats.acked}`,
      `  duplicates   ${stats.duplicates}`,
      `  refused      ${stats.refused}`,
      `  errors       ${stats.errors}`,
      `  uploads      ${stats.uploads} ECG files; commands carried out ${stats.commands}`,
      `  rate         ${((stats.acked + stats.duplicates) / secs).toFixed(1)} msg/s acknowledged`,
      `  ack latency  p50 ${stats.percentile(50).toFixed(1)} ms, p95 ${stats.percentile(95).toFixed(1)} ms, p99 ${stats.percentile(99).toFixed(1)} ms`,
      ...(calls ? callStatsLines(calls.stats, via) : []),
    ].join('\n'),
  )
  const callErrors = calls ? calls.stats.errors + calls.stats.refused : 0
  process.exit(stats.refused > 0 || stats.errors > 0 || callErrors > 0 ? 1 : 0)
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e)
  process.exit(1)
})
