import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' }
import zh from 'i18n-iso-countries/langs/zh.json' with { type: 'json' }

/** One nationality option: ISO 3166-1 alpha-2 id, English and Chinese names. */
export type Nationality = { id: string; en: string; zh: string }

const first = (v: string | string[]) => (Array.isArray(v) ? v[0] : v)

/** Every ISO 3166-1 country with its Chinese and English name, China first. */
export const nationalities: Nationality[] = Object.keys(zh.countries)
  .map((id) => ({
    id,
    zh: first((zh.countries as Record<string, string | string[]>)[id]),
    en: first((en.countries as Record<string, string | string[]>)[id]),
  }))
  .sort((a, b) => (a.id === 'CN' ? -1 : b.id === 'CN' ? 1 : a.zh.localeCompare(b.zh, 'zh-CN')))
