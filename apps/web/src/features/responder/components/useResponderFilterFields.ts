import { DISPATCH_STATES } from '@aed/contracts/responder'
import { useTranslation } from 'react-i18next'
import { agencyFilter, filterIf, selectFilter, textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { useDict } from '../../../lib/useDict'
import { useSession } from '../../../lib/useSession'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { menuHas, ORGANISATION_MENU } from '../../menu'
import { useMenu } from '../../menu/api/useMenu'

/**
 * The list's filters: name, qualification, certificate status, the organisation (only for members
 * whose menu has the organisation list) and the dispatch state.
 */
export function useResponderFilterFields(): FilterField[] {
  const { t } = useTranslation()
  const { options } = useDict()
  const { token } = useSession()
  const menu = useMenu(token)
  const tree = useAgencyTree()
  const all = t('responder.all')
  return [
    textFilter('name', t('responder.name'), t('responder.required.name')),
    selectFilter('aid_aptitude', t('responder.aptitude'), options('aid_aptitude'), all),
    selectFilter('certificate_status', t('responder.certificateStatus'), options('certificate_status'), all),
    ...filterIf(menuHas(menu.data, ORGANISATION_MENU), agencyFilter(t('responder.agency'), tree.data ?? [])),
    selectFilter(
      'dispatch_state',
      t('responder.dispatchState'),
      DISPATCH_STATES.map((s) => ({ value: s, label: t(`responder.dispatch.${s}`) })),
      all,
    ),
  ]
}
