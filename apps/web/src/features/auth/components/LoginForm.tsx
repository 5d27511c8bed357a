import { Code, LOGIN_PHONE, type UserInfo } from '@aed/contracts'
import { LockOutlined, MobileOutlined } from '@ant-design/icons'
import { Alert, App, Button, Form, Input, Tabs } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LegalKind } from '../../../components/LegalModal'
import { ApiError } from '../../../lib/errors'
import { StorageKey, storage } from '../../../lib/storage'
import { type LoginPayload, useLogin } from '../api/useLogin'
import { useSendSmsCode } from '../api/useSendSmsCode'
import { stripSpaces } from '../phone'
import { PrivacyCheckbox } from './PrivacyCheckbox'
import { SmsCodeInput } from './SmsCodeInput'

type LoginTab = 'password' | 'phone'
type LoginValues = { mobile?: string; password?: string; sms_code?: string; privacy?: boolean }

const strip = (v: string | undefined) => (v ?? '').replace(/\s+/g, '')

type Props = { onSignedIn: (info: UserInfo) => void; onOpenLegal: (kind: LegalKind) => void }

/** Password and phone sign-in tabs with the privacy acceptance. */
export function LoginForm({ onSignedIn, onOpenLegal }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<LoginValues>()
  const [tab, setTab] = useState<LoginTab>(() =>
    storage.get(StorageKey.loginWay) === 2 ? 'phone' : 'password',
  )
  const [needSms, setNeedSms] = useState(false)
  const login = useLogin()
  const sendSms = useSendSmsCode()
  const showSms = tab === 'phone' || needSms

  const send = async () => {
    await form.validateFields(['mobile'])
    const result = await sendSms.mutateAsync({ mobile: strip(form.getFieldValue('mobile')), scene: 'login' })
    message.success(t('login.smsSent'))
    return result.resend_after
  }

  const submit = async (values: LoginValues) => {
    const mobile = strip(values.mobile)
    const payload: LoginPayload =
      tab === 'password'
        ? { mobile, password: strip(values.password), login_way: 1, member_type: 3 }
        : { mobile, sms_code: strip(values.sms_code), login_way: 2, member_type: 3 }
    if (tab === 'password' && needSms) payload.sms_code = strip(values.sms_code)
    try {
      const info = await login.mutateAsync(payload)
      storage.set(StorageKey.loginWay, payload.login_way, null)
      onSignedIn(info)
    } catch (error) {
      if (error instanceof ApiError && error.code === Code.NEED_SMS_CODE) setNeedSms(true)
    }
  }

  return (
    <Form form={form} onFinish={submit} size="large" className="login-form" name="login">
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          setTab(key === 'phone' ? 'phone' : 'password')
          form.resetFields(['password', 'sms_code'])
        }}
        centered
        items={[
          { key: 'password', label: <span data-testid="login-tab-password">{t('login.tabPassword')}</span> },
          { key: 'phone', label: <span data-testid="login-tab-phone">{t('login.tabPhone')}</span> },
        ]}
      />
      <Form.Item
        name="mobile"
        normalize={stripSpaces}
        rules={[
          {
            validator: (_, value: string | undefined) =>
              LOGIN_PHONE.test(strip(value))
                ? Promise.resolve()
                : Promise.reject(new Error(t('login.phoneInvalid'))),
          },
        ]}
      >
        <Input
          prefix={<MobileOutlined />}
          placeholder={t('login.mobile')}
          maxLength={11}
          autoComplete="username"
          data-testid="login-mobile"
        />
      </Form.Item>
      {tab === 'password' && (
        <Form.Item
          name="password"
          normalize={stripSpaces}
          rules={[{ required: true, whitespace: true, message: t('login.passwordRequired') }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('login.password')}
            autoComplete="current-password"
            data-testid="login-password"
          />
        </Form.Item>
      )}
      {needSms && tab === 'password' && (
        <Alert
          className="login-alert"
          type="info"
          showIcon
          title={t('login.needSms')}
          data-testid="login-need-sms"
        />
      )}
      {showSms && (
        <Form.Item
          name="sms_code"
          normalize={stripSpaces}
          rules={[{ required: true, whitespace: true, message: t('login.smsRequired') }]}
        >
          <SmsCodeInput size="large" onSend={send} testId="login-sms-code" />
        </Form.Item>
      )}
      <Form.Item
        name="privacy"
        valuePropName="checked"
        rules={[
          {
            validator: (_, value: boolean | undefined) =>
              value ? Promise.resolve() : Promise.reject(new Error(t('login.privacyRequired'))),
          },
        ]}
      >
        <PrivacyCheckbox onOpen={onOpenLegal} />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  )
}
