import type { BodyIn } from '@aed/contracts'
import type { authApi } from '@aed/contracts/auth'
import { App, type FormInstance } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSendSmsCode } from '../api/useSendSmsCode'
import { stripSpaces } from '../phone'

type Scene = BodyIn<typeof authApi.smsCode>['scene']

/**
 * The send of an SMS code to the number in the form's `field`: checks that field, sends, says so,
 * and resolves with the resend delay (rejects when the number is wrong or the send failed).
 */
export function useSendSmsTo(form: FormInstance, field: string, scene: Scene) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const sendSms = useSendSmsCode()
  return async () => {
    await form.validateFields([field])
    const mobile = String(stripSpaces(form.getFieldValue(field) ?? ''))
    const result = await sendSms.mutateAsync({ mobile, scene })
    message.success(t('login.smsSent'))
    return result.resend_after
  }
}
