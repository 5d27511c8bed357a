import { Button, Typography } from 'antd'
import { useTranslation } from 'react-i18next'

/** The small inline message of a dashboard statistic that failed to load, with a retry. */
export function StatsFailed({ retry }: { retry: () => void }) {
  const { t } = useTranslation()
  return (
    <div className="dashboard-stats-failed" data-testid="dashboard-stats-failed">
      <Typography.Text type="danger">{t('dashboard.stats.loadFailed')}</Typography.Text>
      <Button type="link" size="small" onClick={retry}>
        {t('dashboard.stats.retry')}
      </Button>
    </div>
  )
}
