import { type ResponderFormIn, responderApi } from '@aed/contracts/responder'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateResponders } from './useInvalidateResponders'

/** Registers a responder (id null) or edits one; answers the server's 添加成功！ / 修改成功！. */
export function useSaveResponder() {
  const invalidate = useInvalidateResponders()
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: ResponderFormIn }) =>
      id === null
        ? sendApi(responderApi.create, { body: form })
        : sendApi(responderApi.update, { params: { id }, body: form }),
    onSuccess: invalidate,
  })
}
