import type { Agency } from '@aed/contracts/agency'
import { useTranslation } from 'react-i18next'
import { useConfirm } from '../../../lib/useConfirm'
import { useSubmit } from '../../../lib/useSubmit'
import { useSetAgencyState } from '../api/useSetAgencyState'

/** Asks before disabling (the organisation and every one below it lose all functions) or enabling. */
export function useToggleAgency() {
  const { t } = useTranslation()
  const confirm = useConfirm()
  const setState = useSubmit(useSetAgencyState())
  return (agency: Agency) => {
    const disabled = !agency.disabled
    confirm({
      title: disabled ? t('agency.disableTitle') : t('agency.enableTitle'),
      content: disabled ? t('agency.disableConfirm') : t('agency.enableConfirm', { name: agency.name }),
      danger: disabled,
      onOk: () => setState({ id: agency.id, disabled }),
    })
  }
}
