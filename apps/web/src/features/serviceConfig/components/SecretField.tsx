import { CopyOutlined } from '@ant-design/icons'
import { App, Button, Input, Space } from 'antd'
import { useTranslation } from 'react-i18next'

/** A read-only secret with a copy button. */
export function SecretField({ value, testId }: { value?: string; testId: string }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value ?? '')
      message.success(t('common.copied'))
    } catch {
      message.error(t('serviceConfig.copyFailed'))
    }
  }
  return (
    <Space.Compact block>
      <Input readOnly value={value ?? ''} className="secret-input" data-testid={testId} />
      <Button icon={<CopyOutlined />} onClick={copy} disabled={!value}>
        {t('common.copy')}
      </Button>
    </Space.Compact>
  )
}
