import { useTranslation } from 'react-i18next'
import { selectFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { useBrandOptions } from './useBrandOptions'

/** The third-party AED filter: the brand. */
export function useThirdPartyFilterFields(): FilterField[] {
  const { t } = useTranslation()
  return [selectFilter('brand', t('review.brand'), useBrandOptions(), t('review.all'))]
}
