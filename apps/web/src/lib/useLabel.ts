import { type Label, labelIn } from '@aed/contracts/constants'
import type { Lang } from '@aed/contracts/messages'
import { useTranslation } from 'react-i18next'

/** A contracts label (zh-CN, en-US) in the console's language. */
export function useLabel() {
  const { i18n } = useTranslation()
  const lang: Lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN'
  return (label: Label) => labelIn(label, lang)
}
