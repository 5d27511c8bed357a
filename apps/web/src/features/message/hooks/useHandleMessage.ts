import { MsgType } from '@aed/contracts/message'
import { useNavigate } from 'react-router'
import { Paths } from '../../../lib/paths'
import { useConfirmMessage } from '../api/useConfirmMessage'

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
 * 'details' for a message whose event the dashboard opens; 'confirm' for the others: a cabinet
 * door, a device message the server could not process (type 5: nothing on the map to show), and
 * any type this console does not know yet.
 */
export function actionOf(msgType: number): 'confirm' | 'details' {
  return OPENED.includes(msgType) ? 'details' : 'confirm'
}

/** Confirms a message, after opening its event on the dashboard when it has one to open (actionOf). */
export function useHandleMessage() {
  const navigate = useNavigate()
  const confirm = useConfirmMessage()
  const handle = async (m: Handleable) => {
    if (actionOf(m.msg_type) === 'details') await navigate(detailsPath(m))
    return confirm.mutateAsync(m.id)
  }
  return { handle, pending: confirm.isPending ? confirm.variables : undefined }
}
