import { MsgType } from '@aed/contracts/message'
import { useNavigate } from 'react-router'
import { Paths } from '../../../app/paths'
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

/** 'confirm' for a cabinet door message; 'details' for the others. */
export function actionOf(msgType: number): 'confirm' | 'details' {
  return msgType === MsgType.CABINET_DOOR ? 'confirm' : 'details'
}

/** Confirms a message, after opening its event on the dashboard unless it is a cabinet door one. */
export function useHandleMessage() {
  const navigate = useNavigate()
  const confirm = useConfirmMessage()
  const handle = async (m: Handleable) => {
    if (actionOf(m.msg_type) === 'details') await navigate(detailsPath(m))
    return confirm.mutateAsync(m.id)
  }
  return { handle, pending: confirm.isPending ? confirm.variables : undefined }
}
