import type { ServiceConfig } from '@aed/contracts/service-config'
import { Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { dateTimeColumn } from '../../../components/TableColumns/dateTimeColumn'
import { PushDisabledTag } from './PushDisabled'
import { pushesEvents } from './pushUrl'
import { ServiceState } from './ServiceState'

type Actions = {
  onDetail: (s: ServiceConfig) => void
  onModify: (s: ServiceConfig) => void
  onDeliveries: (s: ServiceConfig) => void
}

/** Columns of the service configuration list. */
export function useServiceConfigColumns({
  onDetail,
  onModify,
  onDeliveries,
}: Actions): ColumnsType<ServiceConfig> {
  const { t } = useTranslation()
  return [
    { title: t('serviceConfig.agency'), dataIndex: 'agency_name', width: 220, ellipsis: true },
    {
      title: t('agency.level'),
      dataIndex: 'level',
      width: 110,
      render: (v: number) => t('agency.levelText', { level: v }),
    },
    {
      title: t('serviceConfig.service'),
      dataIndex: 'service_list',
      width: 380,
      render: (list: string[], row) => (
        <>
          {list.map((s) => (
            <Tag key={s} color="blue">
              {s}
            </Tag>
          ))}
          {row.push_disabled && <PushDisabledTag disabled={row.push_disabled} id={row.id} />}
        </>
      ),
    },
    {
      title: t('serviceConfig.stateColumn'),
      dataIndex: 'state',
      width: 100,
      render: (v: number) => <ServiceState state={v} />,
    },
    dateTimeColumn<ServiceConfig>(t('serviceConfig.applyTime'), 'apply_time'),
    actionsColumn<ServiceConfig>(t('table.actions'), 200, (s) => [
      { label: t('common.detail'), onClick: () => onDetail(s), testId: `service-detail-${s.id}` },
      {
        label: t('serviceConfig.modifyAction'),
        onClick: () => onModify(s),
        testId: `service-modify-${s.id}`,
      },
      {
        label: t('serviceConfig.deliveries.action'),
        onClick: () => onDeliveries(s),
        testId: `service-deliveries-${s.id}`,
        // A log to read where a push URL is or was configured.
        show: s.push_url !== null || pushesEvents(s.service),
      },
    ]),
  ]
}
