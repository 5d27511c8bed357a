import { PASSWORD_RULE } from '@aed/contracts'
import { LockOutlined } from '@ant-design/icons'
import { Alert, Form, Input, Modal } from 'antd'
import { useTranslation } from 'react-i18next'
import { sessionStore } from '../../../lib/session'
import { StorageKey, storage } from '../../../lib/storage'
import { useSubmit } from '../../../lib/useSubmit'
import { type ResetPasswordPayload, useResetPassword } from '../api/useResetPassword'

type Values = { old_password?: string; password: string; password_again: string }

/** Change password: stores the new token the server answers with. */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const [form] = Form.useForm<Values>()
  const reset = useResetPassword()
  const send = useSubmit(reset, {
    success: t('password.success'),
    onDone: ({ token }) => {
      sessionStore.setToken(token)
      sessionStore.updateUserInfo({ password_expired: false })
      storage.remove(StorageKey.passwordPrompt)
      onClose()
    },
  })

  const submit = async () => {
    const values = await form.validateFields().catch(() => null)
    if (!values) return
    const payload: ResetPasswordPayload = { password: values.password, password_again: values.password_again }
    if (values.old_password) payload.old_password = values.old_password
    await send(payload)
  }

  return (
    <Modal
      open={open}
      title={t('password.title')}
      onOk={submit}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={reset.isPending}
      destroyOnHidden
      data-testid="change-password-modal"
    >
      <Alert className="password-hint" type="info" showIcon title={t('password.hint')} />
      <Form form={form} layout="vertical" name="change-password" preserve={false}>
        <Form.Item
          name="old_password"
          label={t('password.old')}
          rules={[
            { required: true, message: t('password.oldRequired') },
            { pattern: PASSWORD_RULE, message: t('password.rule') },
          ]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="current-password"
            data-testid="password-old"
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('password.new')}
          rules={[
            { required: true, message: t('password.newRequired') },
            { pattern: PASSWORD_RULE, message: t('password.rule') },
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" data-testid="password-new" />
        </Form.Item>
        <Form.Item
          name="password_again"
          label={t('password.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('password.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_, v: string | undefined) =>
                !v || v === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('password.mismatch'))),
            }),
          ]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="new-password"
            data-testid="password-confirm"
          />
        </Form.Item>
      </Form>
    </Modal>
  )
}
