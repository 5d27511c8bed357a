import type { RescueRow } from '@aed/contracts/rescue'
import { Tag } from 'antd'
import { useTranslation } from 'react-i18next'

const COLOURS = { out: 'warning', returned: 'success', not_returned: 'error' } as const

/** 归还: where the AED taken from a cabinet is (未归还, 已归还, 超时未归还); a dash when it came from none. */
export function ReturnStateTag({ state }: { state: RescueRow['return_state'] }) {
  const { t } = useTranslation()
  if (!state) return <>{t('table.empty')}</>
  return <Tag color={COLOURS[state]}>{t(`rescue.returnStates.${state}`)}</Tag>
}
