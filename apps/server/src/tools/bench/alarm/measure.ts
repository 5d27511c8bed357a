import os from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { Transport } from '../../fleet/transports.ts'
import { log } from '../harness/report.ts'
import { type ServerProcess, sleep } from '../harness/servers.ts'
import { startLoad } from './load.ts'
import { startRescues } from './rescues.ts'
import { startProgress, startSampling } from './samples.ts'
import type { AlarmOptions, Alarms, BenchDevice, ConsoleWs, Devices } from './types.ts'

/** What the measured run starts from. */
export type Stage = {
  o: AlarmOptions
  runId: string
  dbName: string
  servers: ServerProcess[]
  devices: Devices
  pools: { rescuePool: Map<string, BenchDevice[]>; loadPool: BenchDevice[] }
  consoles: ConsoleWs[]
  /** Per instance: the load's transport and the rescues' own. */
  load: Transport[]
  alarmLine: Transport[]
  alarms: Alarms
}

/**
 * 5. The run: the load, the rescues and the samples for `--minutes`; then the requests in flight
 * answered (a minute past the grace at most) and the grace for late pushes.
 */
export async function measure(st: Stage) {
  const { o } = st
  const runStart = performance.now()
  const wallStart = Date.now()
  const traffic = startLoad(o, st.devices, st.pools.loadPool, st.load, runStart)
  const rescues = startRescues(
    o.rescueEveryMs,
    st.runId,
    st.devices,
    st.pools.rescuePool,
    st.consoles,
    st.alarmLine,
    st.alarms,
  )
  const sampling = startSampling(st.servers, st.dbName, traffic.stats, runStart)
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  const stopProgress = startProgress(st.servers, traffic.stats, st.alarms, runStart)

  await sleep(o.minutes * 60_000)
  rescues.stop()
  await traffic.stop()
  sampling.stop()
  const loadSecs = (performance.now() - runStart) / 1000
  log(
    `load stopped after ${loadSecs.toFixed(0)} s; ${traffic.stats.inflight} requests in flight; grace ${o.graceMs / 1000} s`,
  )
  const graceEnd = performance.now() + o.graceMs + 60_000
  while (traffic.stats.inflight > 0 && performance.now() < graceEnd) await sleep(100)
  const drained = (performance.now() - runStart) / 1000
  await sleep(o.graceMs)
  stopProgress()
  delay.disable()
  return {
    stats: traffic.stats,
    samples: sampling.samples,
    delay,
    rescueSkipped: rescues.counts.skipped,
    wallStart,
    loadSecs,
    drained,
    load1: os.loadavg(),
  }
}
