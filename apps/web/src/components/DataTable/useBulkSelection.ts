import { App, type TableProps } from 'antd'
import { type Key, useState } from 'react'

/**
 * The rows a list's toolbar acts on (kept across pages) and the ones being assigned: `assign`
 * opens the assign dialog with the chosen rows, or says `emptyText` when none is chosen.
 */
export function useBulkSelection<T extends { id: number }>(emptyText: string) {
  const { message } = App.useApp()
  const [selected, setSelected] = useState<T[]>([])
  const [assigning, setAssigning] = useState<number[] | null>(null)

  const assign = () => {
    if (selected.length === 0) return void message.error(emptyText)
    setAssigning(selected.map((r) => r.id))
  }

  /** The table's checkboxes, when some action of the toolbar takes them. */
  const rowSelection = (enabled: boolean): TableProps<T>['rowSelection'] =>
    enabled
      ? {
          selectedRowKeys: selected.map((r) => r.id as Key),
          onChange: (_keys, chosen) => setSelected(chosen),
          preserveSelectedRowKeys: true,
        }
      : undefined

  return {
    selected,
    clearSelection: () => setSelected([]),
    assigning,
    assign,
    closeAssign: () => setAssigning(null),
    rowSelection,
  }
}
