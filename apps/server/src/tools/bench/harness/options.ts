import { type ParseArgsConfig, parseArgs } from 'node:util'

// A benchmark's settings: its command-line flags (node:util's parseArgs, with `--help`) and the
// BENCH_* environment variables.

type Flags = NonNullable<ParseArgsConfig['options']>

/**
 * Parses the command line against `flags` plus `--help`, which prints `usage` and exits. An
 * unknown flag is an error; positional arguments only when `positionals` is set.
 */
export function parseOptions<const F extends Flags>(flags: F, usage: string, { positionals = false } = {}) {
  const parsed = parseArgs({
    args: process.argv.slice(2),
    options: { ...flags, help: { type: 'boolean', default: false } } as F,
    allowPositionals: positionals,
  })
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage)
    process.exit(0)
  }
  return parsed
}

/** A flag's value as a number of at least `min`; anything else ends the process (status 2). */
export function atLeast(value: string | undefined, name: string, min: number): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n < min) {
    console.error(`--${name} must be a number >= ${min}`)
    process.exit(2)
  }
  return n
}

/** An environment variable as a number, `fallback` when it is not set. */
export function envNumber(name: string, fallback: number): number {
  return Number(process.env[name] ?? fallback)
}
