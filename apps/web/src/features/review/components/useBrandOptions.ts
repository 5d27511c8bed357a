import { AED_BRANDS } from '@aed/contracts/constants'
import { useTranslation } from 'react-i18next'

/** The brands a third-party AED may be: the Chinese name is the value, shown in the console's language. */
export function useBrandOptions() {
  const { i18n } = useTranslation()
  const en = i18n.language === 'en-US'
  return AED_BRANDS.map((b) => ({ value: b.name, label: en ? b.name_en : b.name }))
}
