import type { Lang } from '@aed/contracts'
import { DATA_DICT, type DataDictKey, dictLabel, labelIn } from '@aed/contracts/constants'
import { useTranslation } from 'react-i18next'

type Entry = { value: number | null; label: readonly [string, string] }

/** Labels and select options of the data dictionary (contracts' DATA_DICT) in the console's language. */
export function useDict() {
  const { i18n } = useTranslation()
  const lang: Lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN'
  return {
    label: (key: DataDictKey, value: number | null) => dictLabel(key, value, lang),
    /** The numbered entries of `key` in the dictionary's order, or only `values` in theirs. */
    options: (key: DataDictKey, values?: readonly number[]) => {
      const entries = (DATA_DICT[key] as readonly Entry[]).filter(
        (e): e is Entry & { value: number } => e.value !== null,
      )
      const shown = values ? entries.filter((e) => values.includes(e.value)) : entries
      if (values) shown.sort((a, b) => values.indexOf(a.value) - values.indexOf(b.value))
      return shown.map((e) => ({ value: e.value, label: labelIn(e.label, lang) }))
    },
  }
}
