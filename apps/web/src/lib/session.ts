import type { UserInfo } from '@aed/contracts'
import { StorageKey, storage } from './storage'

/** What the console keeps about the signed-in member. */
export type Session = {
  token: string | null
  userInfo: UserInfo | null
  permissions: string[]
}

const listeners = new Set<() => void>()
let snapshot: Session = read()

function read(): Session {
  return {
    token: storage.get<string>(StorageKey.token),
    userInfo: storage.get<UserInfo>(StorageKey.userInfo),
    permissions: storage.get<string[]>(StorageKey.permissions) ?? [],
  }
}

function emit() {
  snapshot = read()
  for (const l of listeners) l()
}

export const sessionStore = {
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  /** The current session; re-reads storage so expired values drop out. */
  get(): Session {
    const fresh = read()
    if (
      fresh.token !== snapshot.token ||
      (fresh.userInfo === null) !== (snapshot.userInfo === null) ||
      fresh.permissions.length !== snapshot.permissions.length
    ) {
      snapshot = fresh
    }
    return snapshot
  },
  /** Stores token, user info and permission list from a sign-in or organisation switch. */
  signIn(userInfo: UserInfo) {
    storage.set(StorageKey.token, userInfo.token)
    storage.set(StorageKey.userInfo, userInfo)
    storage.set(StorageKey.permissions, userInfo.permission_list)
    emit()
  },
  setToken(token: string) {
    storage.set(StorageKey.token, token)
    const info = storage.get<UserInfo>(StorageKey.userInfo)
    if (info) storage.set(StorageKey.userInfo, { ...info, token })
    emit()
  },
  updateUserInfo(patch: Partial<UserInfo>) {
    const info = storage.get<UserInfo>(StorageKey.userInfo)
    if (info) storage.set(StorageKey.userInfo, { ...info, ...patch })
    emit()
  },
  /** Clears token, permissions and user info. */
  clear() {
    storage.remove(StorageKey.token)
    storage.remove(StorageKey.userInfo)
    storage.remove(StorageKey.permissions)
    storage.remove(StorageKey.passwordPrompt)
    storage.remove(StorageKey.wechatBind)
    emit()
  },
}
