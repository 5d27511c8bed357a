/** The `redirect` query when it is a path inside the console, else the fallback. */
export function safeRedirect(value: string | null, fallback: string): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/user/login')) return fallback
  return value
}
