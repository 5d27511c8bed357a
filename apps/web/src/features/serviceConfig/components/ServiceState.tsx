import { Typography } from 'antd'
import { useTranslation } from 'react-i18next'

/** 启用 in the normal colour, 禁用 in red. */
export function ServiceState({ state }: { state: number }) {
  const { t } = useTranslation()
  return state === 1 ? (
    <Typography.Text>{t('serviceConfig.states.1')}</Typography.Text>
  ) : (
    <Typography.Text type="danger">{t('serviceConfig.states.0')}</Typography.Text>
  )
}
