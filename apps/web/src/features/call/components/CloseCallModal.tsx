import { CALL_OUTCOMES, type Call, callCloseForm } from '@aed/contracts/call'
import { Form, Input, Radio } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { useFormReset } from '../../../lib/useFormReset'
import { validated } from '../../../lib/validated'
import { useCloseCall } from '../api/useCloseCall'
import { contractRule, langOf } from './contractRule'

type Values = { outcome?: Call['outcome']; remark?: string }
type Props = { call: Call | null; onClose: () => void }

/** 结束: closes an open call with its outcome (AED已使用, 无需AED, 已取消) and a remark. */
export default function CloseCallModal({ call, onClose }: Props) {
  const { t, i18n } = useTranslation()
  const lang = langOf(i18n.language)
  const [form] = Form.useForm<Values>()
  const save = useCloseCall()
  const { send, modal } = useFormDialog(save, { open: call !== null, onClose })
  useFormReset(form, call ? String(call.id) : null)

  const submit = async () => {
    const values = await validated(form)
    if (!call || !values?.outcome) return
    await send({ id: call.id, body: { outcome: values.outcome, remark: values.remark?.trim() || null } })
  }

  return (
    <FormModal {...modal} title={t('call.closeTitle')} onOk={submit} testId="call-close-modal">
      <Form form={form} layout="vertical" preserve={false} name="call-close">
        <p>
          {call?.location} {call?.call_time}
        </p>
        <Form.Item
          name="outcome"
          label={t('call.outcome')}
          rules={[contractRule(callCloseForm.shape.outcome, lang)]}
        >
          <Radio.Group
            options={CALL_OUTCOMES.map((o) => ({ value: o, label: t(`call.outcomes.${o}`) }))}
            data-testid="call-close-outcome"
          />
        </Form.Item>
        <Form.Item name="remark" label={t('call.remark')}>
          <Input.TextArea maxLength={200} showCount rows={3} placeholder={t('call.remarkPlaceholder')} />
        </Form.Item>
        <FormFreshStart />
      </Form>
    </FormModal>
  )
}
