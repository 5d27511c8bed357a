import type { Responder } from '@aed/contracts/responder'
import { Form, Input } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { useFormReset } from '../../../lib/useFormReset'
import { useSetAvailability } from '../api/useSetAvailability'

type Props = { responder: Responder | null; onClose: () => void }

/** 暂停派单: stops the alerts to a responder (holiday, moved away), with an optional reason. */
export default function PauseModal({ responder, onClose }: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ reason?: string }>()
  const save = useSetAvailability()
  const { send, modal } = useFormDialog(save, { open: responder !== null, onClose })
  useFormReset(form, responder ? String(responder.id) : null)

  const submit = async () => {
    if (!responder) return
    const { reason } = form.getFieldsValue()
    await send({ id: responder.id, body: { paused: true, reason: reason?.trim() || null } })
  }

  return (
    <FormModal {...modal} title={t('responder.pauseTitle')} onOk={submit} testId="responder-pause-modal">
      <Form form={form} layout="vertical" preserve={false} name="responder-pause">
        <p>{t('responder.pauseFor', { name: responder?.name ?? '' })}</p>
        <Form.Item name="reason" label={t('responder.pauseReason')}>
          <Input.TextArea
            maxLength={100}
            showCount
            rows={3}
            placeholder={t('responder.pauseReasonPlaceholder')}
            data-testid="responder-pause-reason"
          />
        </Form.Item>
        <FormFreshStart />
      </Form>
    </FormModal>
  )
}
