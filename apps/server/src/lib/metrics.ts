// A small metrics registry: counters and gauges with labels, in Prometheus's text exposition
// format 0.0.4 (GET /metrics, modules/system/metrics.routes.ts). A metric is defined once, at a
// module's top level (its name, help and label names, like a table's columns); its values belong
// to an owner, the app's context (any object here: lib/ knows no AppContext), so two apps in
// one process (tests, two instances) count apart. A scrape lists every defined metric: its
// preset series at 0 until counted, so an alert on a rate sees the series before the first event.

/** Whose values: the app's context. Series are kept per owner and dropped with it. */
type Owner = object

/** What GET /metrics answers with. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** One series' label values, by the metric's label names. */
export type Labels<L extends string> = { readonly [K in L]: string }

type Kind = 'counter' | 'gauge'
type Definition = {
  name: string
  help: string
  kind: Kind
  labels: readonly string[]
  preset: readonly Record<string, string>[]
}
type Series = { labels: Record<string, string>; value: number }

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/

const definitions = new Map<string, Definition>()
/** Per context: metric name → series key → series. */
const values = new WeakMap<Owner, Map<string, Map<string, Series>>>()

/** A counter: only goes up (a restart starts it at 0 again; Prometheus's rate() knows). */
export type Counter<L extends string> = {
  readonly name: string
  inc(ctx: Owner, labels: Labels<L>, by?: number): void
  get(ctx: Owner, labels: Labels<L>): number
}

/** A gauge: a value that is set, up or down. */
export type Gauge<L extends string> = {
  readonly name: string
  set(ctx: Owner, labels: Labels<L>, value: number): void
  inc(ctx: Owner, labels: Labels<L>, by?: number): void
  get(ctx: Owner, labels: Labels<L>): number
}

type Options<L extends string> = {
  /** Label names, in the order they are written. */
  labels?: readonly L[]
  /** Series shown at 0 before anything is counted (e.g. every sender_kind). */
  preset?: readonly Labels<L>[]
}

function define<L extends string>(kind: Kind, name: string, help: string, o: Options<L>) {
  if (!NAME.test(name)) throw new Error(`metric name ${name} is not valid`)
  if (definitions.has(name)) throw new Error(`metric ${name} is defined twice`)
  const labels = o.labels ?? []
  for (const l of labels) {
    if (!LABEL.test(l) || l.startsWith('__')) throw new Error(`label ${l} of ${name} is not valid`)
  }
  const def: Definition = { name, help, kind, labels, preset: [] }
  def.preset = (o.preset ?? []).map((p) => pick(def, p))
  definitions.set(name, def)
  return def
}

/** The label values in the metric's own order; a missing one is a bug in the caller. */
function pick(def: Definition, labels: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const l of def.labels) {
    const v = labels[l]
    if (v === undefined) throw new Error(`metric ${def.name} needs label ${l}`)
    out[l] = String(v)
  }
  return out
}

function seriesOf(ctx: Owner, def: Definition, labels: Record<string, string>): Series {
  let byName = values.get(ctx)
  if (!byName) {
    byName = new Map()
    values.set(ctx, byName)
  }
  let byKey = byName.get(def.name)
  if (!byKey) {
    byKey = new Map()
    byName.set(def.name, byKey)
  }
  const picked = pick(def, labels)
  const key = JSON.stringify(def.labels.map((l) => picked[l]))
  let s = byKey.get(key)
  if (!s) {
    s = { labels: picked, value: 0 }
    byKey.set(key, s)
  }
  return s
}

function peek(ctx: Owner, def: Definition, labels: Record<string, string>): number {
  const picked = pick(def, labels)
  const key = JSON.stringify(def.labels.map((l) => picked[l]))
  return values.get(ctx)?.get(def.name)?.get(key)?.value ?? 0
}

/** Defines a counter (once per process, at a module's top level). */
export function counter<L extends string = never>(
  name: string,
  help: string,
  o: Options<L> = {},
): Counter<L> {
  const def = define('counter', name, help, o)
  return {
    name,
    inc(ctx, labels, by = 1) {
      if (!(by >= 0)) throw new Error(`counter ${name} cannot go down (${by})`)
      seriesOf(ctx, def, labels).value += by
    },
    get: (ctx, labels) => peek(ctx, def, labels),
  }
}

/** Defines a gauge (once per process, at a module's top level). */
export function gauge<L extends string = never>(name: string, help: string, o: Options<L> = {}): Gauge<L> {
  const def = define('gauge', name, help, o)
  return {
    name,
    set(ctx, labels, value) {
      seriesOf(ctx, def, labels).value = value
    },
    inc(ctx, labels, by = 1) {
      seriesOf(ctx, def, labels).value += by
    },
    get: (ctx, labels) => peek(ctx, def, labels),
  }
}

const escapeHelp = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')
const escapeValue = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

function formatNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN'
  if (v === Number.POSITIVE_INFINITY) return '+Inf'
  if (v === Number.NEGATIVE_INFINITY) return '-Inf'
  return String(v)
}

function formatLabels(labels: Record<string, string>): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeValue(v)}"`)
  return parts.length ? `{${parts.join(',')}}` : ''
}

/** Every defined metric with this context's values, in the text exposition format 0.0.4. */
export function renderMetrics(ctx: Owner): string {
  const lines: string[] = []
  const names = [...definitions.keys()].sort()
  for (const name of names) {
    const def = definitions.get(name) as Definition
    const recorded = values.get(ctx)?.get(name) ?? new Map<string, Series>()
    const series = new Map<string, Series>()
    for (const p of def.preset)
      series.set(JSON.stringify(def.labels.map((l) => p[l])), { labels: p, value: 0 })
    for (const [key, s] of recorded) series.set(key, s)
    // A metric without labels has its one series even before anything happened.
    if (def.labels.length === 0 && series.size === 0) series.set('[]', { labels: {}, value: 0 })
    lines.push(`# HELP ${name} ${escapeHelp(def.help)}`, `# TYPE ${name} ${def.kind}`)
    for (const key of [...series.keys()].sort()) {
      const s = series.get(key) as Series
      lines.push(`${name}${formatLabels(s.labels)} ${formatNumber(s.value)}`)
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : ''
}
