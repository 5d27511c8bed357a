import { isMessageKey, type Lang, translate } from '@aed/contracts/messages'
import { useTranslation } from 'react-i18next'

/** A contracts message (a key of messages.ts) in the console's language; other text as it is. */
export function useMessageText() {
  const { i18n } = useTranslation()
  const lang: Lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN'
  return (key: string) => (isMessageKey(key) ? translate(key, lang) : key)
}
