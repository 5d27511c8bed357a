import type { AppService } from '@aed/contracts/app-service'
import { Button, Space, Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { ServiceState } from './ServiceState'

type Actions = { onDetail: (s: AppService) => void; onModify: (s: AppService) => void }

/** Columns of the service configuration list. */
export function useServiceConfigColumns({ onDetail, onModify }: Actions): ColumnsType<AppService> {
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
    {
      title: t('serviceConfig.applyTime'),
      dataIndex: 'apply_time',
      sorter: true,
      width: 170,
      render: (v: string) => formatDateTime(v),
    },
    {
      title: t('table.actions'),
      key: 'actions',
      width: 130,
      fixed: 'right',
      render: (_, s) => (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          <Button type="link" size="small" onClick={() => onDetail(s)} data-testid={`service-detail-${s.id}`}>
            {t('common.detail')}
          </Button>
          <Button type="link" size="small" onClick={() => onModify(s)} data-testid={`service-modify-${s.id}`}>
            {t('serviceConfig.modifyAction')}
          </Button>
        </Space>
      ),
    },
  ]
}
