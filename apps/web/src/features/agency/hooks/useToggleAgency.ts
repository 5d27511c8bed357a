import type { Agency } from '@aed/contracts/agency'
import { App } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSubmit } from '../../../lib/useSubmit'
import { useSetAgencyState } from '../api/useSetAgencyState'

/** Asks before disabling (the organisation and every one below it lose all functions) or enabling. */
export function useToggleAgency() {
  const { t } = useTranslation()
  const { modal } = App.useApp()
  const setState = useSubmit(useSetAgencyState())
  return (agency: Agency) => {
    const disabled = !agency.disabled
    modal.confirm({
      title: disabled ? t('agency.disableTitle') : t('agency.enableTitle'),
      content: disabled ? t('agency.disableConfirm') : t('agency.enableConfirm', { name: agency.name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: disabled ? { danger: true } : undefined,
      onOk: () => setState({ id: agency.id, disabled }),
    })
  }
}
