import { Code, LOGIN_PHONE, type UserInfo } from '@aed/contracts'
import { Alert, Button, Form, Tabs } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LegalKind } from '../../../components/LegalModal'
import { ApiError } from '../../../lib/errors'
import { StorageKey, storage } from '../../../lib/storage'
import { type LoginPayload, useLogin } from '../api/useLogin'
import { useSendSmsTo } from '../hooks/useSendSmsTo'
import { stripSpaces } from '../phone'
import { PasswordField } from './PasswordField'
import { PhoneField } from './PhoneField'
import { PrivacyCheckbox } from './PrivacyCheckbox'
import { SmsCodeField } from './SmsCodeField'

type LoginTab = 'password' | 'phone'
type LoginValues = { mobile?: string; password?: string; sms_code?: string; privacy?: boolean }

const strip = (v: string | undefined) => (v ?? '').replace(/\s+/g, '')

type Props = { onSignedIn: (info: UserInfo) => void; onOpenLegal: (kind: LegalKind) => void }

/** Password and phone sign-in tabs with the privacy acceptance. */
export function LoginForm({ onSignedIn, onOpenLegal }: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<LoginValues>()
  const [tab, setTab] = useState<LoginTab>(() =>
    storage.get(StorageKey.loginWay) === 2 ? 'phone' : 'password',
  )
  const [needSms, setNeedSms] = useState(false)
  const login = useLogin()
  const send = useSendSmsTo(form, 'mobile', 'login')
  const showSms = tab === 'phone' || needSms

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
      <PhoneField
        name="mobile"
        pattern={LOGIN_PHONE}
        invalid={t('login.phoneInvalid')}
        placeholder={t('login.mobile')}
        autoComplete="username"
        testId="login-mobile"
      />
      {tab === 'password' && (
        <PasswordField
          name="password"
          normalize={stripSpaces}
          rules={[{ required: true, whitespace: true, message: t('login.passwordRequired') }]}
          placeholder={t('login.password')}
          autoComplete="current-password"
          testId="login-password"
        />
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
        <SmsCodeField required={t('login.smsRequired')} size="large" onSend={send} testId="login-sms-code" />
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
