import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'
import 'dayjs/locale/en'
import { i18n } from '../i18n'

/** dayjs (pickers, dates) follows the console language; loaded with the console, not the sign-in. */
const apply = (lng: string) => dayjs.locale(lng === 'en-US' ? 'en' : 'zh-cn')
apply(i18n.language)
i18n.on('languageChanged', apply)
