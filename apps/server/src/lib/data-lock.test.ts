import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DataDirLockedError, lockDataDir } from './data-lock.ts'

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'aed-lock-'))

describe('data folder lock', () => {
  it('refuses a folder held by a live process', async () => {
    const dir = tmp()
    const other = spawn('sleep', ['30'])
    fs.writeFileSync(path.join(dir, 'server.lock'), String(other.pid))
    try {
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError)
      expect(() => lockDataDir(dir)).toThrow(/in use by another AED Cloud server/)
    } finally {
      other.kill()
    }
  })

  it('takes over a lock left by a process that is gone, and releases it', async () => {
    const dir = tmp()
    const gone = spawn('true')
    await new Promise((r) => gone.on('exit', r))
    fs.writeFileSync(path.join(dir, 'server.lock'), String(gone.pid))
    const release = lockDataDir(dir)
    expect(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid))
    release()
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false)
  })
})
