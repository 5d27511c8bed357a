import fs from 'node:fs'
import path from 'node:path'

/** Raised when another live process holds the data folder. */
export class DataDirLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes an exclusive lock on the data folder, because two PGlite processes on one folder
 * silently lose writes. The lock file holds the owner's pid: a lock whose process is gone
 * (killed, crashed) is taken over, so it never blocks a restart.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, 'server.lock')
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx')
      fs.writeSync(fd, String(process.pid))
      fs.closeSync(fd)
      let released = false
      const release = () => {
        if (released) return
        released = true
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file)
        } catch {
          // already gone
        }
      }
      process.once('exit', release)
      return release
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      const owner = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10)
      if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) {
        throw new DataDirLockedError(
          `The data folder ${dir} is in use by another AED Cloud server (pid ${owner}). ` +
            'Stop that server, or start this one with another DATA_DIR.',
        )
      }
      // Stale lock from a process that no longer runs: remove it and try again.
      fs.rmSync(file, { force: true })
    }
  }
  throw new DataDirLockedError(`Could not lock the data folder ${dir}`)
}
