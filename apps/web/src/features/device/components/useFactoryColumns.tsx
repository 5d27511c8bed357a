import type { FactoryDevice } from '@aed/contracts/device'
import { Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'

/** Columns of the factory list (spec 2.2). */
export function useFactoryColumns(): ColumnsType<FactoryDevice> {
  const { t } = useTranslation()
  const dash = t('table.empty')
  return [
    { title: t('device.sn'), dataIndex: 'device_sn', width: 180, sorter: true },
    { title: t('device.model'), dataIndex: 'model', width: 110, render: (v: string) => v || dash },
    {
      title: t('device.fwVersion'),
      dataIndex: 'fw_version',
      width: 140,
      render: (v: string | null) => v || dash,
    },
    { title: t('device.agency'), dataIndex: 'agency_name', width: 240, ellipsis: true },
    {
      title: t('device.factory.createTime'),
      dataIndex: 'create_time',
      width: 180,
      sorter: true,
      render: (v: string) => formatDateTime(v),
    },
    {
      title: t('device.factory.isRegister'),
      dataIndex: 'is_register',
      width: 120,
      render: (v: 0 | 1) =>
        v === 1 ? (
          <Tag color="green">{t('device.factory.registered')}</Tag>
        ) : (
          <Tag>{t('device.factory.unregistered')}</Tag>
        ),
    },
  ]
}
