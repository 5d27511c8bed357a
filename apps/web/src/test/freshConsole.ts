import type { UserInfo } from '@aed/contracts'
import { afterEach, beforeEach, vi } from 'vitest'
import { i18n } from '../i18n'
import { sessionStore } from '../lib/session'
import { storage } from '../lib/storage'

type Options = {
  /** The test file's own state to empty before each test (recorded calls, canned rows). */
  reset?: () => void
  /** Who is signed in when a test starts; nobody when left out. */
  signedIn?: UserInfo
  /** Also undo `vi.spyOn`s after each test, for files that spy on shared objects. */
  restoreMocks?: boolean
}

/**
 * Registers the hooks that give every test of a file the same start: no stored session, the
 * given member signed in, Chinese texts; and afterwards real timers and no stubbed globals, so a
 * test that fakes the clock or `fetch` cannot leak it into the next.
 */
export function freshConsole({ reset, signedIn, restoreMocks }: Options = {}) {
  beforeEach(async () => {
    reset?.()
    storage.clear()
    sessionStore.clear()
    if (signedIn) sessionStore.signIn(signedIn)
    await i18n.changeLanguage('zh-CN')
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
    if (restoreMocks) vi.restoreAllMocks()
  })
}
