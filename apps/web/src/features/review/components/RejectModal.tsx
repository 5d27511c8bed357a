import { Form, Input } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useMessageText } from '../../../lib/useMessageText'
import { validated } from '../../../lib/validated'

type Props = {
  open: boolean
  saving: boolean
  /** Resolves true once the rejection was saved (the dialog then closes). */
  onReject: (reason: string) => Promise<boolean>
  onClose: () => void
}

const REASON_MAX = 200

/** 驳回: the reason, required (a text area), then the rejection. */
export default function RejectModal({ open, saving, onReject, onClose }: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ rejected_reason: string }>()
  const text = useMessageText()
  const submit = async () => {
    const values = await validated(form)
    if (values === null) return
    if (await onReject(values.rejected_reason.trim())) onClose()
  }
  return (
    <FormModal
      open={open}
      title={t('review.rejectTitle')}
      saving={saving}
      onOk={submit}
      onClose={onClose}
      testId="review-reject-modal"
    >
      <Form form={form} layout="vertical" preserve={false} name="review-reject">
        <Form.Item
          name="rejected_reason"
          label={t('review.rejectReason')}
          rules={[{ required: true, whitespace: true, message: text('REJECT_REASON_REQUIRED') }]}
        >
          <Input.TextArea
            rows={4}
            maxLength={REASON_MAX}
            showCount
            placeholder={t('review.rejectPlaceholder')}
            data-testid="review-reject-reason"
          />
        </Form.Item>
        <FormFreshStart />
      </Form>
    </FormModal>
  )
}
