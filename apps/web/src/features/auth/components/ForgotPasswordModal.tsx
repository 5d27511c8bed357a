import { FORGET_PHONE, PASSWORD_RULE } from '@aed/contracts'
import { LockOutlined, MobileOutlined } from '@ant-design/icons'
import { App, Form, Input, Modal } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSubmit } from '../../../lib/useSubmit'
import { useForgetPassword } from '../api/useForgetPassword'
import { useSendSmsCode } from '../api/useSendSmsCode'
import { stripSpaces } from '../phone'
import { SmsCodeInput } from './SmsCodeInput'

type Values = { phone: string; sms_code: string; password: string; re_password: string }

/** Resets a forgotten password with an SMS code (scene 'forget'). */
export function ForgotPasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<Values>()
  const sendSms = useSendSmsCode()
  const forget = useForgetPassword()
  const reset = useSubmit(forget, {
    success: t('forgot.success'),
    onDone: () => {
      form.resetFields()
      onClose()
    },
  })

  const send = async () => {
    await form.validateFields(['phone'])
    const result = await sendSms.mutateAsync({ mobile: form.getFieldValue('phone'), scene: 'forget' })
    message.success(t('login.smsSent'))
    return result.resend_after
  }

  const submit = async () => {
    const values = await form.validateFields().catch(() => null)
    if (!values) return
    await reset(values)
  }

  return (
    <Modal
      open={open}
      title={t('forgot.title')}
      onCancel={onClose}
      onOk={submit}
      okText={t('forgot.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={forget.isPending}
      okButtonProps={{ 'data-testid': 'forgot-submit' } as Record<string, string>}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="forgot" preserve={false}>
        <Form.Item
          name="phone"
          normalize={stripSpaces}
          rules={[
            {
              validator: (_, v: string | undefined) =>
                FORGET_PHONE.test(v ?? '')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('forgot.phoneInvalid'))),
            },
          ]}
        >
          <Input
            prefix={<MobileOutlined />}
            placeholder={t('forgot.phone')}
            maxLength={11}
            data-testid="forgot-phone"
          />
        </Form.Item>
        <Form.Item
          name="sms_code"
          normalize={stripSpaces}
          rules={[{ required: true, message: t('forgot.smsRequired') }]}
        >
          <SmsCodeInput onSend={send} testId="forgot-sms-code" />
        </Form.Item>
        <Form.Item
          name="password"
          rules={[{ pattern: PASSWORD_RULE, required: true, message: t('forgot.passwordRule') }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('forgot.password')}
            autoComplete="new-password"
            data-testid="forgot-password"
          />
        </Form.Item>
        <Form.Item
          name="re_password"
          dependencies={['password']}
          rules={[
            { required: true, message: t('forgot.confirm') },
            ({ getFieldValue }) => ({
              validator: (_, v: string | undefined) =>
                !v || v === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('forgot.mismatch'))),
            }),
          ]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('forgot.confirm')}
            autoComplete="new-password"
            data-testid="forgot-confirm"
          />
        </Form.Item>
      </Form>
    </Modal>
  )
}
