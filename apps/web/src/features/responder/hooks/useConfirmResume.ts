import type { Responder } from '@aed/contracts/responder'
import { useTranslation } from 'react-i18next'
import { useConfirm } from '../../../lib/useConfirm'
import { useSubmit } from '../../../lib/useSubmit'
import { useSetAvailability } from '../api/useSetAvailability'

/** Asks before resuming the alerts to a paused responder, then resumes them. */
export function useConfirmResume() {
  const { t } = useTranslation()
  const confirm = useConfirm()
  const submit = useSubmit(useSetAvailability())
  return (r: Responder) =>
    confirm({
      title: t('responder.resumeTitle'),
      content: t('responder.resumeConfirm', { name: r.name }),
      onOk: () => submit({ id: r.id, body: { paused: false } }),
    })
}
