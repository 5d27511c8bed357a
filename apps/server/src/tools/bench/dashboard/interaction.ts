import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { log, ms } from '../harness/report.ts'
import { sleep } from '../harness/servers.ts'
import { drive } from './drive.ts'
import { type FrameStats, frameStats, logLongFrames, startFrames, stopFrames } from './frames.ts'
import type { DashboardOptions } from './options.ts'
import { startPushes } from './pushes.ts'
import { summariseLongSlices, TRACE_DRIVE } from './trace.ts'

// 3. Interaction on a first view's page: the map driven with the mouse, quiet, then while status
// pushes arrive.

/** One drive of `seconds`, its frames recorded (and, given `traceFile`, traced and its long slices listed). */
async function recordDrive(browser: Browser, page: Page, seconds: number, traceFile: string | null) {
  if (traceFile) await browser.startTracing(page, { path: traceFile, categories: TRACE_DRIVE })
  await startFrames(page)
  await drive(page, seconds)
  const r = await stopFrames(page)
  if (traceFile) {
    await browser.stopTracing()
    summariseLongSlices(traceFile)
  }
  return r
}

/** The quiet drive, then (with a live rate) the drive under status pushes; answers their frame statistics. */
export async function interaction(browser: Browser, page: Page, o: DashboardOptions) {
  await sleep(2000)
  const driveTrace = path.join(os.tmpdir(), `aed-bench-dashboard-drive-${Date.now()}.json`)
  const quietFrames = await recordDrive(browser, page, o.seconds, o.traceDrive ? driveTrace : null)
  const quiet: FrameStats = frameStats(quietFrames)
  log(`interaction: ${quiet.n} frames, max ${ms(quiet.max)} ms, p99 ${ms(quiet.p99)} ms`)
  logLongFrames(quietFrames.loaf)
  let live: (FrameStats & { sent: number }) | null = null
  if (o.liveRate > 0) {
    const stopPushes = startPushes(o.liveRate)
    await sleep(6000) // the outbox drains every few seconds: pushes arrive before the recording
    const liveTrace = driveTrace.replace('.json', '-live.json')
    const r = await recordDrive(browser, page, o.seconds, o.traceDrive ? liveTrace : null)
    const sent = await stopPushes()
    live = { ...frameStats(r), sent }
    log(`interaction with ${sent} pushes: ${live.n} frames, max ${ms(live.max)} ms, p99 ${ms(live.p99)} ms`)
    logLongFrames(r.loaf)
  }
  return { quiet, live }
}
