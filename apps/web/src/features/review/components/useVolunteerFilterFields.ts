import { useTranslation } from 'react-i18next'
import { selectFilter, textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'

/** The volunteer filters: name (at most 50, 字符长度不超过50) and has-certificate (是 1, 否 0). */
export function useVolunteerFilterFields(): FilterField[] {
  const { t } = useTranslation()
  return [
    textFilter('name', t('review.name'), t('review.namePlaceholder')),
    selectFilter(
      'has_cert',
      t('review.hasCert'),
      [
        { value: '1', label: t('review.yes') },
        { value: '0', label: t('review.no') },
      ],
      t('review.all'),
    ),
  ]
}
