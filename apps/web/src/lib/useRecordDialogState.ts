import { useState } from 'react'

/**
 * Which add / edit dialog of a list page is open: `add()` opens it empty, `edit(row)` on a row,
 * and `modal` (open, id, onClose) spreads onto the dialog.
 */
export function useRecordDialogState() {
  const [dialog, setDialog] = useState<{ id: number | null } | null>(null)
  return {
    add: () => setDialog({ id: null }),
    edit: (row: { id: number }) => setDialog({ id: row.id }),
    modal: { open: dialog !== null, id: dialog?.id ?? null, onClose: () => setDialog(null) },
  }
}
