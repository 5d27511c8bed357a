import { Alert, Form, Switch } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { validated } from '../../../lib/validated'
import { useSecurity, useUpdateSecurity } from '../api/useSecurity'
import { PasswordField } from './PasswordField'

type Values = { sms_dual_verify: boolean; password: string }

/** Security settings: SMS dual verification of the signed-in account, confirmed by its password. */
export function SecurityModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const [form] = Form.useForm<Values>()
  const security = useSecurity(open)
  const update = useUpdateSecurity()
  const { send, modal } = useFormDialog(update, { open, onClose, success: t('security.saved') })

  const submit = async () => {
    const values = await validated(form)
    if (!values) return
    await send(values)
  }

  return (
    <FormModal
      {...modal}
      title={t('security.title')}
      onOk={submit}
      loading={security.isLoading}
      testId="security-modal"
    >
      <Alert type="info" showIcon title={t('security.hint')} style={{ marginBottom: 16 }} />
      {security.data && (
        <Form
          form={form}
          layout="vertical"
          name="security"
          preserve={false}
          initialValues={{ sms_dual_verify: security.data.sms_dual_verify }}
        >
          <Form.Item name="sms_dual_verify" label={t('security.dual')} valuePropName="checked">
            <Switch data-testid="security-dual" />
          </Form.Item>
          <PasswordField
            name="password"
            label={t('security.password')}
            rules={[{ required: true, message: t('login.passwordRequired') }]}
            autoComplete="current-password"
            testId="security-password"
          />
        </Form>
      )}
    </FormModal>
  )
}
