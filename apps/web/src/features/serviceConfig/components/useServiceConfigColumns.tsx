import type { ServiceConfig } from '@aed/contracts/service-config'
import { Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { dateTimeColumn } from '../../../components/TableColumns/dateTimeColumn'
import { ServiceState } from './ServiceState'

type Actions = { onDetail: (s: ServiceConfig) => void; onModify: (s: ServiceConfig) => void }

/** Columns of the service configuration list. */
export function useServiceConfigColumns({ onDetail, onModify }: Actions): ColumnsType<ServiceConfig> {
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
      render: (list: string[]) =>
        list.map((s) => (
          <Tag key={s} color="blue">
            {s}
          </Tag>
        )),
    },
    {
      title: t('serviceConfig.stateColumn'),
      dataIndex: 'state',
      width: 100,
      render: (v: number) => <ServiceState state={v} />,
    },
    dateTimeColumn<ServiceConfig>(t('serviceConfig.applyTime'), 'apply_time'),
    actionsColumn<ServiceConfig>(t('table.actions'), 130, (s) => [
      { label: t('common.detail'), onClick: () => onDetail(s), testId: `service-detail-${s.id}` },
      {
        label: t('serviceConfig.modifyAction'),
        onClick: () => onModify(s),
        testId: `service-modify-${s.id}`,
      },
    ]),
  ]
}
