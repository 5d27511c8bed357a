import { DashboardOutlined } from '@ant-design/icons'
import { Card, Empty, Typography } from 'antd'
import { useTranslation } from 'react-i18next'

/** /watchBoard/dashboard: the map dashboard arrives with its own issue; this holds its place. */
export function DashboardPage() {
  const { t } = useTranslation()
  return (
    <div className="page" data-testid="dashboard-page">
      <Typography.Title level={3} className="page-title">
        <DashboardOutlined /> {t('dashboard.title')}
      </Typography.Title>
      <Card>
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <>
              <Typography.Text strong>{t('dashboard.comingSoon')}</Typography.Text>
              <br />
              <Typography.Text type="secondary">{t('dashboard.description')}</Typography.Text>
            </>
          }
        />
      </Card>
    </div>
  )
}
