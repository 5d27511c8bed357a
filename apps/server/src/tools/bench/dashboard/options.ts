import path from 'node:path'
import { parseOptions } from '../harness/options.ts'

// The dashboard bench's command line, and where things are.

export function dashboardOptions() {
  const { values: a } = parseOptions(
    {
      reuse: { type: 'boolean', default: false },
      runs: { type: 'string', default: '5' },
      seconds: { type: 'string', default: '15' },
      'live-rate': { type: 'string', default: '100' },
      shots: { type: 'boolean', default: false },
      trace: { type: 'boolean', default: false },
      'trace-drive': { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      'gpu-compositing': { type: 'boolean', default: false },
      /** The child process: the server (serve.ts), not the bench. */
      serve: { type: 'boolean', default: false },
      timeline: { type: 'boolean', default: false },
    },
    `npm run bench:dashboard -- [options]
  --reuse          keep the database when it is loaded (else it is dropped and loaded again, ~2 min)
  --runs N         first views measured, each in a fresh browser context (default 5)
  --seconds S      length of each mouse-driven interaction (default 15)
  --live-rate R    status pushes a second during the second interaction; 0 skips it (default 100)
  --shots          save docs/benchmarks/dashboard-100k.png, -street.png and -province.png
  --trace          trace one more first view and sum the threads' time (main, MapLibre worker)
  --trace-drive    trace the mouse drives and list its long slices (over 30 ms) by thread and name
  --no-build       use apps/web/dist as it is
  --timeline       print each first view's map events (renders, source data, idle) from the response
  --gpu-compositing  without --disable-gpu: SwiftShader in the GPU process composites too, so the
                   page's WebGL frames are not read back to the CPU on the main thread
Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:55432/aed_bench_dash); BENCH_DEVICES etc. as for npm run bench.
BENCH_WEB_DIST: serve that build instead of apps/web/dist (implies --no-build).`,
  )
  return {
    reuse: a.reuse,
    runs: Math.max(1, Number(a.runs)),
    seconds: Math.max(2, Number(a.seconds)),
    liveRate: Math.max(0, Number(a['live-rate'])),
    shots: a.shots,
    trace: a.trace,
    traceDrive: a['trace-drive'],
    noBuild: a['no-build'],
    gpuCompositing: a['gpu-compositing'],
    serve: a.serve,
    timeline: a.timeline,
  }
}

export type DashboardOptions = ReturnType<typeof dashboardOptions>

export const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/aed_bench_dash'
/** The repository. */
export const ROOT = path.resolve(import.meta.dirname, '../../../../../..')
export const WEB = path.join(ROOT, 'apps/web')
/** BENCH_WEB_DIST: another build to serve (e.g. an older commit's, to compare on the same machine state). */
export const DIST = process.env.BENCH_WEB_DIST ?? path.join(WEB, 'dist')
export const SHOTS = path.join(ROOT, 'docs/benchmarks')
export const SYSTEM_PHONE = '13800000000'
export const LOCATION = '/api/v1/analysis-board/device/location/'
export const SHANGHAI = { lon: 121.47, lat: 31.23 }
export const BEIJING = { lon: 116.4, lat: 39.9 }
