/** Local-storage wrapper: every key is prefixed and every value carries an expiry time. */
export const STORAGE_PREFIX = 'aed__'
export const DAY_MS = 24 * 60 * 60 * 1000

type Entry = { value: unknown; expire: number | null }

export type Storage = {
  get<T>(key: string): T | null
  set(key: string, value: unknown, ttlMs?: number | null): void
  remove(key: string): void
  clear(): void
}

/** Creates a storage over `backend`; `ttlMs` null means the value never expires. */
export function createStorage(
  backend: globalThis.Storage,
  prefix = STORAGE_PREFIX,
  defaultTtlMs = DAY_MS,
  now: () => number = Date.now,
): Storage {
  const full = (key: string) => `${prefix}${key}`
  return {
    get<T>(key: string): T | null {
      const raw = backend.getItem(full(key))
      if (raw === null) return null
      try {
        const entry = JSON.parse(raw) as Entry
        if (entry.expire !== null && entry.expire <= now()) {
          backend.removeItem(full(key))
          return null
        }
        return (entry.value ?? null) as T | null
      } catch {
        backend.removeItem(full(key))
        return null
      }
    },
    set(key, value, ttlMs = defaultTtlMs) {
      const entry: Entry = { value, expire: ttlMs === null ? null : now() + ttlMs }
      backend.setItem(full(key), JSON.stringify(entry))
    },
    remove(key) {
      backend.removeItem(full(key))
    },
    clear() {
      const keys: string[] = []
      for (let i = 0; i < backend.length; i++) {
        const k = backend.key(i)
        if (k?.startsWith(prefix)) keys.push(k)
      }
      for (const k of keys) backend.removeItem(k)
    },
  }
}

export const storage = createStorage(window.localStorage)

/** Names of the stored items. */
export const StorageKey = {
  token: 'token',
  userInfo: 'user_info',
  permissions: 'permissions',
  siteSettings: 'site_settings',
  language: 'language',
  loginWay: 'login_way',
  passwordPrompt: 'password_prompt',
  wechatBind: 'wechat_bind',
} as const
