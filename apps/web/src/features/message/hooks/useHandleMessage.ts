import { MsgType } from '@aed/contracts/message'
import { useNavigate } from 'react-router'
import { Paths } from '../../../lib/paths'
import { useConfirmMessage } from '../api/useConfirmMessage'
import { isReviewMessage, reviewPath } from './reviewPath'

/** What a message's button needs: its id, type and the dashboard event it opens. */
export type Handleable = { id: number; msg_type: number; event_type: number; event_id: number }

/** The dashboard address that opens the message's event (spec: formMsg=1, event_type, event_id). */
export function detailsPath(m: Pick<Handleable, 'event_type' | 'event_id'>) {
  const query = new URLSearchParams({
    event_type: String(m.event_type),
    event_id: String(m.event_id),
    formMsg: '1',
  })
  return `${Paths.dashboard}?${query}`
}

/** Types whose event the dashboard opens: call, rescue, location offset. */
const OPENED: readonly number[] = [MsgType.CALL, MsgType.RESCUE, MsgType.OFFSET]

/**
 * 'details' for a message whose event the dashboard opens, or a submission its review page; 'confirm' for the others: a cabinet
 * door, a device message the server could not process (type 5: nothing on the map to show), and
 * any type this console does not know yet.
 */
export function actionOf(msgType: number): 'confirm' | 'details' {
  return OPENED.includes(msgType) || isReviewMessage(msgType) ? 'details' : 'confirm'
}

/** Confirms a message, after opening its event on the dashboard (or a submission on its review page) when it has one (actionOf). */
export function useHandleMessage() {
  const navigate = useNavigate()
  const confirm = useConfirmMessage()
  const handle = async (m: Handleable) => {
    if (isReviewMessage(m.msg_type)) await navigate(reviewPath(m.msg_type))
    else if (actionOf(m.msg_type) === 'details') await navigate(detailsPath(m))
    return confirm.mutateAsync(m.id)
  }
  return { handle, pending: confirm.isPending ? confirm.variables : undefined }
}
