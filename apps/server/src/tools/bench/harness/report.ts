// The benchmarks' output: progress lines and the report's Markdown tables.

/** A progress line, stamped with the time of day (UTC). */
export const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`)

/** Prints a Markdown table: the header row, its rule, then one line per row. */
export function printTable(headers: string[], rows: (string | number)[][]) {
  console.log(`| ${headers.join(' | ')} |\n| ${headers.map(() => '---').join(' | ')} |`)
  for (const r of rows) console.log(`| ${r.join(' | ')} |`)
}

/** Milliseconds, whole; an en dash for a figure that was not measured. */
export const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–')
/** Bytes in KiB, one decimal, with the unit. */
export const kib = (b: number) => `${(b / 1024).toFixed(1)} KiB`
/** Bytes in whole MiB, the number only. */
export const mib = (b: number) => Math.round(b / 1024 / 1024)
