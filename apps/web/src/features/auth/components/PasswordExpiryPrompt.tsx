import { SafetyOutlined } from '@ant-design/icons'
import { Button, Modal, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { StorageKey, storage } from '../../../lib/storage'

/** After sign-in with a password older than 90 days: 'click to modify' or 'ignore'. */
export function PasswordExpiryPrompt({ onModify }: { onModify: () => void }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(() => storage.get<boolean>(StorageKey.passwordPrompt) === true)
  const close = () => {
    storage.remove(StorageKey.passwordPrompt)
    setOpen(false)
  }
  return (
    <Modal
      open={open}
      title={
        <span>
          <SafetyOutlined className="expiry-icon" /> {t('expiry.title')}
        </span>
      }
      closable={false}
      mask={{ closable: false }}
      onCancel={close}
      footer={[
        <Button key="ignore" onClick={close} data-testid="expiry-ignore">
          {t('expiry.ignore')}
        </Button>,
        <Button
          key="modify"
          type="primary"
          onClick={() => {
            close()
            onModify()
          }}
          data-testid="expiry-modify"
        >
          {t('expiry.modify')}
        </Button>,
      ]}
      data-testid="password-expiry"
    >
      <Typography.Paragraph>{t('expiry.content')}</Typography.Paragraph>
    </Modal>
  )
}
