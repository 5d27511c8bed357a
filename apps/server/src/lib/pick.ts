/** The named fields of an object, copied as they are (a presenter's plain fields in one line). */
export function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>
  for (const k of keys) out[k] = o[k]
  return out
}
