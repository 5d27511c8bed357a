import type { ServiceConfig } from '@aed/contracts/service-config'
import { Descriptions, Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { PushDisabledTag } from './PushDisabled'
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
        {
          key: 'push',
          label: t('serviceConfig.pushUrl'),
          children: (
            <>
              <span data-testid="service-detail-push-url">
                {config.push_url ?? t('serviceConfig.pushUrlNone')}
              </span>
              {config.push_disabled && (
                <>
                  {' '}
                  <PushDisabledTag disabled={config.push_disabled} id={config.id} />
                </>
              )}
            </>
          ),
        },
        { key: 'state', label: t('serviceConfig.state'), children: <ServiceState state={config.state} /> },
        { key: 'apply', label: t('serviceConfig.applyTime'), children: formatDateTime(config.apply_time) },
      ]}
      data-testid="service-detail"
    />
  )
}
