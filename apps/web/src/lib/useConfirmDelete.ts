import type { Envelope } from '@aed/contracts'
import type { UseMutationResult } from '@tanstack/react-query'
import { useConfirm } from './useConfirm'
import { useSubmit } from './useSubmit'

type Texts = { title: string; content: string }

/** Asks before deleting a row (OK in red), then deletes it by id and shows the server's message. */
export function useConfirmDelete<R extends { id: number }, D>(
  remove: Pick<UseMutationResult<Envelope<D>, Error, number>, 'mutateAsync'>,
  texts: (row: R) => Texts,
) {
  const confirm = useConfirm()
  const submit = useSubmit(remove)
  return (row: R) => confirm({ ...texts(row), danger: true, onOk: () => submit(row.id) })
}
