import { PASSWORD_RULE } from '@aed/contracts'
import { Alert, Form } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { sameAsField } from '../../../lib/sameAsField'
import { sessionStore } from '../../../lib/session'
import { StorageKey, storage } from '../../../lib/storage'
import { validated } from '../../../lib/validated'
import { type ResetPasswordPayload, useResetPassword } from '../api/useResetPassword'
import { PasswordField } from './PasswordField'

type Values = { old_password?: string; password: string; password_again: string }

/** Change password: stores the new token the server answers with. */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const [form] = Form.useForm<Values>()
  const reset = useResetPassword()
  const { send, modal } = useFormDialog(reset, {
    open,
    onClose,
    success: t('password.success'),
    onDone: ({ token }) => {
      sessionStore.setToken(token)
      sessionStore.updateUserInfo({ password_expired: false })
      storage.remove(StorageKey.passwordPrompt)
      onClose()
    },
  })

  const passwordRule = { pattern: PASSWORD_RULE, message: t('password.rule') }

  const submit = async () => {
    const values = await validated(form)
    if (!values) return
    const payload: ResetPasswordPayload = { password: values.password, password_again: values.password_again }
    if (values.old_password) payload.old_password = values.old_password
    await send(payload)
  }

  return (
    <FormModal
      {...modal}
      title={t('password.title')}
      width={520}
      onOk={submit}
      testId="change-password-modal"
    >
      <Alert className="password-hint" type="info" showIcon title={t('password.hint')} />
      <Form form={form} layout="vertical" name="change-password" preserve={false}>
        {(
          [
            ['old_password', 'password.old', 'password.oldRequired', 'current-password', 'password-old'],
            ['password', 'password.new', 'password.newRequired', 'new-password', 'password-new'],
          ] as const
        ).map(([name, label, required, autoComplete, testId]) => (
          <PasswordField
            key={name}
            name={name}
            label={t(label)}
            rules={[{ required: true, message: t(required) }, passwordRule]}
            autoComplete={autoComplete}
            testId={testId}
          />
        ))}
        <PasswordField
          name="password_again"
          label={t('password.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('password.confirmRequired') },
            sameAsField('password', t('password.mismatch')),
          ]}
          autoComplete="new-password"
          testId="password-confirm"
        />
      </Form>
    </FormModal>
  )
}
