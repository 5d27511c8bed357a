import { FORGET_PHONE, PASSWORD_RULE } from '@aed/contracts'
import { Form } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { sameAsField } from '../../../lib/sameAsField'
import { validated } from '../../../lib/validated'
import { useForgetPassword } from '../api/useForgetPassword'
import { useSendSmsTo } from '../hooks/useSendSmsTo'
import { PasswordField } from './PasswordField'
import { PhoneField } from './PhoneField'
import { SmsCodeField } from './SmsCodeField'

type Values = { phone: string; sms_code: string; password: string; re_password: string }

/** Resets a forgotten password with an SMS code (scene 'forget'). */
export function ForgotPasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const [form] = Form.useForm<Values>()
  const send = useSendSmsTo(form, 'phone', 'forget')
  const forget = useForgetPassword()
  const { send: reset, modal } = useFormDialog(forget, {
    open,
    onClose,
    success: t('forgot.success'),
    onDone: () => {
      form.resetFields()
      onClose()
    },
  })

  const submit = async () => {
    const values = await validated(form)
    if (!values) return
    await reset(values)
  }

  return (
    <FormModal
      {...modal}
      title={t('forgot.title')}
      onOk={submit}
      okText={t('forgot.submit')}
      okButtonProps={{ 'data-testid': 'forgot-submit' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" name="forgot" preserve={false}>
        <PhoneField
          name="phone"
          pattern={FORGET_PHONE}
          invalid={t('forgot.phoneInvalid')}
          placeholder={t('forgot.phone')}
          testId="forgot-phone"
        />
        <SmsCodeField required={t('forgot.smsRequired')} onSend={send} testId="forgot-sms-code" />
        <PasswordField
          name="password"
          rules={[{ pattern: PASSWORD_RULE, required: true, message: t('forgot.passwordRule') }]}
          placeholder={t('forgot.password')}
          autoComplete="new-password"
          testId="forgot-password"
        />
        <PasswordField
          name="re_password"
          dependencies={['password']}
          rules={[
            { required: true, message: t('forgot.confirm') },
            sameAsField('password', t('forgot.mismatch')),
          ]}
          placeholder={t('forgot.confirm')}
          autoComplete="new-password"
          testId="forgot-confirm"
        />
      </Form>
    </FormModal>
  )
}
