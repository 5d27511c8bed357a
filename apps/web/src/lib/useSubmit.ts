import type { Envelope } from '@aed/contracts'
import type { UseMutationResult } from '@tanstack/react-query'
import { App } from 'antd'

type Options<D> = {
  /** After the success toast: close the dialog, keep what the server answered. */
  onDone?: (data: D) => void
  /** A fixed success text, for the few writes whose answer carries no message worth showing. */
  success?: string
}

/**
 * The submit of a dialog or confirm: runs the save, shows the server's `msg` as a success toast,
 * then `onDone`. A failure was already shown by the request client, so it only resolves false.
 */
export function useSubmit<V, D>(
  mutation: Pick<UseMutationResult<Envelope<D>, Error, V>, 'mutateAsync'>,
  { onDone, success }: Options<D> = {},
) {
  const { message } = App.useApp()
  return async (variables: V): Promise<boolean> => {
    try {
      const { msg, data } = await mutation.mutateAsync(variables)
      message.success(success ?? msg)
      onDone?.(data)
      return true
    } catch {
      return false
    }
  }
}
