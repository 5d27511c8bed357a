import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
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
  // The shell's texts (copies: i18next merges the features' texts into them); features add theirs
  // through addTexts (the sign-in's with the app's providers, app/signInTexts.ts; the console
  // pages' with the console, consoleTexts.ts).
  resources: {
    'zh-CN': { translation: { ...shellZhCN } },
    'en-US': { translation: { ...shellEnUS } },
  },
  lng: initial,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...languages],
  interpolation: { escapeValue: false },
  initAsync: false,
})
applyLanguage(initial)

/** Texts of one or more features, by language, merged deeply into the shell's. */
export type Texts = Record<Language, Record<string, unknown>>

/** Adds a feature's texts to the console's; i18n itself knows no feature. */
export function addTexts(texts: Texts) {
  for (const lng of languages) i18n.addResourceBundle(lng, 'translation', texts[lng], true, true)
}

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
