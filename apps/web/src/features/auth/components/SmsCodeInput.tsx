import { SMS_RESEND_SECONDS } from '@aed/contracts'
import { SafetyOutlined } from '@ant-design/icons'
import { Button, Input, Space } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useCountdown } from '../hooks/useCountdown'

type Props = {
  value?: string
  onChange?: (value: string) => void
  /** Sends a code; resolves with the resend delay in seconds, rejects when nothing was sent. */
  onSend: () => Promise<number | undefined>
  size?: 'large' | 'middle'
  testId: string
}

/** A verification-code input with a send button that counts down 60 s before resending. */
export function SmsCodeInput({ value, onChange, onSend, size, testId }: Props) {
  const { t } = useTranslation()
  const { seconds, running, start } = useCountdown()
  const [sending, setSending] = useState(false)

  const send = async () => {
    setSending(true)
    try {
      const after = await onSend()
      start(after && after > 0 ? after : SMS_RESEND_SECONDS)
    } catch {
      // Validation or the request failed: the form or the request client already said why.
    } finally {
      setSending(false)
    }
  }

  return (
    <Space.Compact block>
      <Input
        size={size}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        prefix={<SafetyOutlined />}
        placeholder={t('login.smsCode')}
        maxLength={8}
        autoComplete="one-time-code"
        data-testid={testId}
      />
      <Button
        size={size}
        disabled={running}
        loading={sending}
        onClick={send}
        data-testid={`${testId}-send`}
        style={{ minWidth: 128 }}
      >
        {running ? t('login.resendIn', { seconds }) : t('login.sendCode')}
      </Button>
    </Space.Compact>
  )
}
