import type { Envelope } from '@aed/contracts'
import type { UseMutationResult } from '@tanstack/react-query'
import type { FormInstance } from 'antd'
import { useSubmit } from '../../lib/useSubmit'

type Save<V, D> = Pick<UseMutationResult<Envelope<D>, Error, V>, 'mutateAsync' | 'isPending'>

type Options<D> = {
  open: boolean
  onClose: () => void
  /** Replaces the close after a save, for dialogs that keep something of the answer first. */
  onDone?: (data: D) => void
  /** A fixed success text instead of the server's `msg`. */
  success?: string
}

/**
 * A dialog's save: `send` saves, shows the message and closes; `modal` is what FormModal needs
 * of it (open, close, the OK button's spinner).
 */
export function useFormDialog<V, D>(save: Save<V, D>, { open, onClose, onDone, success }: Options<D>) {
  const send = useSubmit(save, { success, onDone: onDone ?? onClose })
  return { send, modal: { open, onClose, saving: save.isPending } }
}

/** useFormDialog for the add / edit dialog of record `id` (null adds one), as RecordFormModal takes it. */
export function useRecordDialog<F, V, D>(
  save: Save<V, D>,
  form: FormInstance<F>,
  id: number | null,
  options: Options<D>,
) {
  const { send, modal } = useFormDialog(save, options)
  return { send, editing: id !== null, modal: { ...modal, form, recordId: id } }
}
