import type { ColumnsType } from 'antd/es/table'
import { useState } from 'react'
import { DAY_MS, storage } from '../../lib/storage'
import { visibleColumns } from './columnChoice'

const KEPT_MS = 365 * DAY_MS

/**
 * Which columns of a table the member chose to see (the 筛选列 action), kept a year per table.
 * `always` names columns that cannot be hidden (the serial, the actions).
 */
export function useColumnChoice<T>(table: string, columns: ColumnsType<T>, always: readonly string[] = []) {
  const storageKey = `columns_${table}`
  const [hidden, setHiddenState] = useState<string[]>(() => storage.get<string[]>(storageKey) ?? [])
  const setHidden = (next: string[]) => {
    setHiddenState(next)
    storage.set(storageKey, next, KEPT_MS)
  }
  return { shown: visibleColumns(columns, hidden, always), hidden, setHidden, always }
}
