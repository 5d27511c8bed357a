// `npm run bench:cluster -- [--devices 20000] [--http-devices 2000] [--rate R] [--minutes M]
// [--compare] [--soak]`: the deployment of issue 29 under device load, on this machine.
//
//   1. A fresh cluster (tools/cluster/launch.ts: PostgreSQL, Mosquitto with dynamic security,
//      the server instances with MQTT_AUTH=mosquitto-dynsec, nginx), the demo network seeded.
//   2. `--devices` factory devices for MQTT and `--http-devices` for HTTPS, registered through
//      the device service (their secrets sealed with the cluster's key); each MQTT device's
//      static account written into the broker's dynamic-security file and Mosquitto restarted
//      (--dynsec file, the default; a benchmark shortcut), or left to the servers (--dynsec server).
//   3. `--consoles` live-channel WebSockets signed in as the demo members, alternately on each
//      instance; every MQTT device on a lean connection of its own, the HTTPS devices over
//      kept-alive connections to nginx; each device's first messages, and the outbox drained.
//   4. For --minutes: `--rate` messages a second (--mqtt-share over MQTT, one a PUBLISH at QoS 1,
//      the rest in signed HTTPS batches), 90 % heartbeats, 10 % self-tests; a rescue over MQTT
//      every --rescue-every seconds, taken by whichever instance the shared subscription gives it
//      to; its alarm timed on the consoles of the last instance (PUBLISH to frame).
//   5. What the instances stored a second (their own count of MQTT messages taken, the HTTPS
//      acknowledgements), the latencies, minute by minute, and each process's memory every 5 s
//      (CSV and SVG chart in --out). With --compare, the same on one instance, and the ratio.
//
// --soak: 30 minutes at 1,000 msg/s with 200 consoles, 5 minutes of warm-up before the memory
// growth is measured. 20,000 sockets need `ulimit -n` above that for the bench and Mosquitto.
import fs from 'node:fs'
import path from 'node:path'
import { DEFAULT_DIR, REPO_ROOT } from '../../cluster/launch.ts'
import { atLeast, parseOptions } from '../harness/options.ts'
import { log, printTable } from '../harness/report.ts'
import { runBench } from '../harness/servers.ts'
import { runOnCluster } from './run.ts'
import type { ClusterBenchOptions, RunResult } from './types.ts'

function options(): ClusterBenchOptions {
  const { values: a } = parseOptions(
    {
      devices: { type: 'string', default: '20000' },
      'http-devices': { type: 'string', default: '2000' },
      rate: { type: 'string' },
      'mqtt-share': { type: 'string', default: '0.5' },
      minutes: { type: 'string' },
      'warm-up': { type: 'string' },
      consoles: { type: 'string' },
      'rescue-every': { type: 'string', default: '1' },
      grace: { type: 'string', default: '15' },
      servers: { type: 'string', default: '2' },
      compare: { type: 'boolean', default: false },
      soak: { type: 'boolean', default: false },
      batch: { type: 'string', default: '10' },
      sockets: { type: 'string', default: '32' },
      dynsec: { type: 'string', default: 'file' },
      dir: { type: 'string', default: `${DEFAULT_DIR}-bench` },
      out: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
    `npm run bench:cluster -- [options]
  --devices N        MQTT devices, a connection each (default 20000)
  --http-devices N   HTTPS devices (default 2000)
  --rate R           messages a second offered in all (default 2000; 1000 with --soak)
  --mqtt-share F     the part of the rate over MQTT (default 0.5)
  --minutes M        length of the load (default 5; 30 with --soak)
  --warm-up M        minutes left out of the memory growth (default 1; 5 with --soak)
  --consoles N       live-channel sockets, alternately on each instance (default 20; 200 with --soak)
  --rescue-every S   seconds between rescues over MQTT (default 1)
  --grace S          seconds to wait for late alarms (default 15)
  --servers N        server instances (default 2)
  --compare          then the same run on one instance, and the ratio of the stored rates
  --soak             30 minutes at 1,000 msg/s with 200 consoles (each default above)
  --batch B          messages per HTTPS request (default 10)
  --sockets S        kept-alive HTTPS connections to nginx (default 32)
  --dynsec file|server  devices' MQTT accounts written into the broker's file before the run
                     (default), or created by the servers (MQTT_AUTH=mosquitto-dynsec)
  --dir DIR          the clusters' working folder (default <repo>/.cluster-bench)
  --out DIR          memory CSV and chart (default DIR)
  --keep             leave the last cluster running`,
  )
  const soak = a.soak
  const dir = path.resolve(a.dir)
  if (a.dynsec !== 'file' && a.dynsec !== 'server') {
    console.error('--dynsec must be file or server')
    process.exit(2)
  }
  const servers = atLeast(a.servers, 'servers', 1)
  return {
    devices: atLeast(a.devices, 'devices', 10),
    httpDevices: atLeast(a['http-devices'], 'http-devices', 10),
    rate: atLeast(a.rate ?? (soak ? '1000' : '2000'), 'rate', 1),
    mqttShare: Math.min(1, atLeast(a['mqtt-share'], 'mqtt-share', 0)),
    minutes: atLeast(a.minutes ?? (soak ? '30' : '5'), 'minutes', 0.5),
    warmUpMinutes: atLeast(a['warm-up'] ?? (soak ? '5' : '1'), 'warm-up', 0),
    consoles: atLeast(a.consoles ?? (soak ? '200' : '20'), 'consoles', 1),
    rescueEveryMs: atLeast(a['rescue-every'], 'rescue-every', 0.1) * 1000,
    graceMs: atLeast(a.grace, 'grace', 1) * 1000,
    servers: a.compare ? [servers, 1] : [servers],
    batch: Math.min(100, atLeast(a.batch, 'batch', 1)),
    sockets: atLeast(a.sockets, 'sockets', 1),
    dynsec: a.dynsec,
    dir,
    out: path.resolve(a.out ?? dir),
    soak,
    keep: a.keep,
  }
}

async function main(o: ClusterBenchOptions) {
  fs.mkdirSync(o.out, { recursive: true })
  log(`bench:cluster ${JSON.stringify({ ...o, dir: path.relative(REPO_ROOT, o.dir) })}`)
  const results: RunResult[] = []
  for (const servers of o.servers) results.push(await runOnCluster(o, servers))
  if (results.length > 1) {
    const [many, one] = results
    console.log('\n### Comparison\n')
    printTable(
      ['', `${many.servers} instances`, '1 instance', 'ratio'],
      [
        [
          'stored msg/s',
          many.stored.toFixed(0),
          one.stored.toFixed(0),
          (many.stored / one.stored).toFixed(2),
        ],
        [
          'of which MQTT',
          many.storedMqtt.toFixed(0),
          one.storedMqtt.toFixed(0),
          (many.storedMqtt / one.storedMqtt).toFixed(2),
        ],
        [
          'of which HTTPS',
          many.storedHttp.toFixed(0),
          one.storedHttp.toFixed(0),
          (many.storedHttp / one.storedHttp).toFixed(2),
        ],
      ],
    )
  }
}

runBench(() => main(options()), { exit: true })
