import type { ServiceConfig } from '@aed/contracts/service-config'
import { Descriptions, Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { ServiceState } from './ServiceState'

/** The read-only detail of a service configuration. */
export function ServiceConfigDetail({ config }: { config: ServiceConfig }) {
  const { t } = useTranslation()
  return (
    <Descriptions
      column={1}
      bordered
      size="small"
      items={[
        { key: 'agency', label: t('serviceConfig.agency'), children: config.agency_name },
        { key: 'level', label: t('agency.level'), children: t('agency.levelText', { level: config.level }) },
        {
          key: 'service',
          label: t('serviceConfig.service'),
          children: config.service_list.map((s) => (
            <Tag key={s} color="blue">
              {s}
            </Tag>
          )),
        },
        { key: 'state', label: t('serviceConfig.state'), children: <ServiceState state={config.state} /> },
        { key: 'apply', label: t('serviceConfig.applyTime'), children: formatDateTime(config.apply_time) },
      ]}
      data-testid="service-detail"
    />
  )
}
