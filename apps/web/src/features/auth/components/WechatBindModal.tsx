import { maskPhone } from '@aed/contracts/mask'
import { Alert, Button, Form, Modal, Spin, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { StorageKey, storage } from '../../../lib/storage'
import { useSession } from '../../../lib/useSession'
import { validated } from '../../../lib/validated'
import { useSendSmsCode } from '../api/useSendSmsCode'
import { useWechatConfig } from '../api/useWechatConfig'
import { PENDING_BIND_TTL_MS, type PendingWechatBind } from '../hooks/useWechatBindReturn'
import { SmsCodeField } from './SmsCodeField'
import { WechatQrPanel } from './WechatQrPanel'

/** Bind WeChat: an SMS code (scene bind_wx) first, then the WeChat QR code flow. */
export function WechatBindModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const { userInfo } = useSession()
  const [form] = Form.useForm<{ sms_code: string }>()
  const [step, setStep] = useState<'sms' | 'qr'>('sms')
  const config = useWechatConfig('bind', open && step === 'sms')
  const sendSms = useSendSmsCode()
  const phone = userInfo?.phone ?? ''
  const unavailable = config.data?.enabled === false

  const send = async () => (await sendSms.mutateAsync({ mobile: phone, scene: 'bind_wx' })).resend_after
  const next = async () => {
    const values = await validated(form)
    if (!values) return
    storage.set(
      StorageKey.wechatBind,
      { sms_code: values.sms_code } satisfies PendingWechatBind,
      PENDING_BIND_TTL_MS,
    )
    setStep('qr')
  }
  const close = () => {
    setStep('sms')
    onClose()
  }

  const body = () => {
    if (step === 'qr') return <WechatQrPanel purpose="bind" />
    if (config.isPending) return <Spin className="wechat-panel" />
    if (unavailable) {
      return (
        <Alert
          type="warning"
          showIcon
          title={t('wechat.bindNotConfigured')}
          data-testid="wechat-not-configured"
        />
      )
    }
    return (
      <Form form={form} layout="vertical" name="wechat-bind" preserve={false}>
        <Typography.Paragraph type="secondary">
          {t('wechat.bindSmsHint', { phone: maskPhone(phone) ?? '' })}
        </Typography.Paragraph>
        <SmsCodeField required={t('login.smsRequired')} onSend={send} testId="wechat-bind-sms" />
      </Form>
    )
  }

  return (
    <Modal
      open={open}
      title={t('wechat.bindTitle')}
      onCancel={close}
      footer={
        step === 'sms' && config.data?.enabled ? (
          <Button type="primary" onClick={next} data-testid="wechat-bind-next">
            {t('wechat.next')}
          </Button>
        ) : null
      }
      destroyOnHidden
      data-testid="wechat-bind-modal"
    >
      {body()}
    </Modal>
  )
}
