#!/usr/bin/env node
// `npm test`: every tier. Builds the console, provides a real PostgreSQL for the API suite
// (TEST_DATABASE_URL, or a throwaway cluster when PostgreSQL is installed), runs the unit,
// API and component tests, then the Chromium end-to-end suite, and closes with one line
// 'N passed, N failed, N skipped'.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-test-'))
fs.chmodSync(work, 0o777)
const totals = { passed: 0, failed: 0, skipped: 0 }
/** Each failed test's file and name, repeated at the end: CI keeps only the output's tail. */
const failures = []
let failed = false

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  return r.status ?? 1
}

function vitest(label, projects, env = {}) {
  const out = path.join(work, `${label}.json`)
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p])]
  args.push('--reporter=default', '--reporter=json', `--outputFile.json=${out}`)
  console.log(`\n=== ${label}: ${projects.join(', ')}`)
  const status = run('npx', args, env)
  if (status !== 0) failed = true
  const named = failures.length
  try {
    const r = JSON.parse(fs.readFileSync(out, 'utf8'))
    totals.passed += r.numPassedTests
    totals.failed += r.numFailedTests
    totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0)
    for (const file of r.testResults ?? []) {
      const name = path.relative(root, file.name)
      const bad = (file.assertionResults ?? []).filter((t) => t.status === 'failed')
      for (const t of bad)
        failures.push(`${label}: ${name} > ${t.fullName}\n    ${firstLine(t.failureMessages)}`)
      // A file that failed before its tests ran (an import, a hook) has no failed test to name.
      if (file.status === 'failed' && bad.length === 0)
        failures.push(`${label}: ${name}\n    ${file.message}`)
    }
  } catch {
    failed = true
    console.error(`${label}: no results were written`)
  }
  // Vitest fails a run for an error outside any test (an unhandled rejection) without failing a test.
  if (status !== 0 && failures.length === named)
    failures.push(`${label}: vitest exited ${status} with no failed test; see "Unhandled Errors" above`)
}

const firstLine = (messages) =>
  String(messages?.[0] ?? '')
    .split('\n')[0]
    .slice(0, 300)

/** A throwaway PostgreSQL cluster from the installed server binaries, or null. */
function startPostgres() {
  const base = '/usr/lib/postgresql'
  if (!fs.existsSync(base)) return null
  const version = fs.readdirSync(base).sort((a, b) => Number(b) - Number(a))[0]
  const bin = path.join(base, version, 'bin')
  if (!fs.existsSync(path.join(bin, 'initdb'))) return null
  const dataDir = path.join(work, 'pg')
  const port = String(55000 + Math.floor(Math.random() * 1000))
  // initdb refuses to run as root: run the cluster as the postgres user then.
  const asUser = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : []
  const sh = (file, args) =>
    asUser.length
      ? execFileSync(asUser[0], [...asUser.slice(1), file, ...args], { stdio: 'pipe' })
      : execFileSync(file, args, { stdio: 'pipe' })
  sh(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '--auth=trust',
    '-U',
    'postgres',
    '--encoding=UTF8',
    '--locale=C',
  ])
  const opts = `-p ${port} -k ${work} -c listen_addresses=127.0.0.1 -c fsync=off`
  sh(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-o', opts, '-w', 'start', '-l', path.join(work, 'pg.log')])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => sh(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop']),
  }
}

console.log('=== building the console')
if (run('npm', ['run', 'build', '-w', 'apps/web'], { VITE_TEST_HOOKS: '1' }) !== 0) {
  console.error('the console build failed')
  process.exit(1)
}

let pg = null
let pgUrl = process.env.TEST_DATABASE_URL
if (!pgUrl) {
  try {
    pg = startPostgres()
    pgUrl = pg?.url
  } catch (e) {
    console.warn(`could not start a PostgreSQL cluster: ${e.message}`)
  }
}

try {
  const projects = ['contracts', 'server', 'web']
  if (pgUrl) projects.push('server-pg')
  else
    console.warn(
      '\nNo PostgreSQL available (set TEST_DATABASE_URL or install postgresql): the API suite runs on PGlite only.',
    )
  vitest('unit-api-web', projects, pgUrl ? { TEST_DATABASE_URL: pgUrl } : {})
  vitest('e2e', ['e2e'])
} finally {
  pg?.stop()
  fs.rmSync(work, { recursive: true, force: true })
}

if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`)
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(failed || totals.failed > 0 ? 1 : 0)
