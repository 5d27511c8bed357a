import { translate } from '@aed/contracts/messages'
import { useQueryClient } from '@tanstack/react-query'
import { App, type FormInstance } from 'antd'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { lookupAccount } from '../../member/api/accountLookup'
import type { ResponderFormValues } from './responderFormValues'

const given = <V>(key: string, v: V | null | undefined) => (v == null || v === '' ? {} : { [key]: v })

/**
 * An 11-digit phone typed into a new registration: an existing account fills the person's fields;
 * an account of another organisation is said to be one, since only that organisation may register it.
 */
export function usePhonePrefill(form: FormInstance<ResponderFormValues>) {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const client = useQueryClient()
  return async (phone: string) => {
    const found = await lookupAccount(client, phone).catch(() => null)
    const a = found?.account
    if (found?.exists && !a)
      message.warning(translate('RESPONDER_ACCOUNT_ELSEWHERE', i18n.language === 'en-US' ? 'en-US' : 'zh-CN'))
    if (!found?.exists || !a) return
    form.setFieldsValue({
      name: a.name,
      ...given('email', a.email),
      ...given('gender', a.gender === 1 || a.gender === 2 ? a.gender : null),
      ...given('birth', a.birth ? dayjs(a.birth) : null),
      ...given('location', a.location),
      ...given('location_desc', a.location_desc),
      ...given('address_code', a.address_code),
      ...given('lat', a.lat),
      ...given('lon', a.lon),
    })
    message.info(t('responder.prefilled'))
  }
}
