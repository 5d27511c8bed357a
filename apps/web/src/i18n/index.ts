import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { authEnUS } from '../features/auth/i18n/en-US'
import { authZhCN } from '../features/auth/i18n/zh-CN'
import { DAY_MS, StorageKey, storage } from '../lib/storage'
import { shellEnUS } from './en-US'
import { shellZhCN } from './zh-CN'

export const languages = ['zh-CN', 'en-US'] as const
export type Language = (typeof languages)[number]
export const DEFAULT_LANGUAGE: Language = 'zh-CN'
const LANGUAGE_TTL_MS = 365 * DAY_MS

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value)
}

function storedLanguage(): Language {
  const value = storage.get<string>(StorageKey.language)
  return isLanguage(value) ? value : DEFAULT_LANGUAGE
}

function applyLanguage(lng: Language) {
  document.documentElement.lang = lng
}

export const i18n = i18next.createInstance()

const initial = storedLanguage()
void i18n.use(initReactI18next).init({
  // The shell's and the sign-in's texts; the console pages' arrive with the console (consoleTexts.ts).
  resources: {
    'zh-CN': { translation: { ...shellZhCN, ...authZhCN } },
    'en-US': { translation: { ...shellEnUS, ...authEnUS } },
  },
  lng: initial,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...languages],
  interpolation: { escapeValue: false },
  initAsync: false,
})
applyLanguage(initial)

/** Switches the console language and keeps it in storage (lib/dayjsLocale.ts moves dayjs along). */
export async function changeLanguage(lng: Language) {
  storage.set(StorageKey.language, lng, LANGUAGE_TTL_MS)
  applyLanguage(lng)
  await i18n.changeLanguage(lng)
}

/** The current language, narrowed to a supported one. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE
}
