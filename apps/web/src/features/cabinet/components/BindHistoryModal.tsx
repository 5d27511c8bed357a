import type { Cabinet, CabinetBindRecord } from '@aed/contracts/cabinet'
import { Modal } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { QueryTable } from '../../../components/DataTable/QueryTable'
import { formatDateTime } from '../../../lib/datetime'
import { useDict } from '../../../lib/useDict'
import { BIND_PAGE_SIZE, useBindRecords } from '../api/useBindRecords'

/** 绑定记录 in a full-screen modal: every assignment, bind and unbind of the cabinet, newest first. */
export default function BindHistoryModal({
  cabinet,
  onClose,
}: {
  cabinet: Cabinet | null
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { label } = useDict()
  const [page, setPage] = useState(1)
  const binds = useBindRecords(cabinet?.id ?? null, page)
  const dash = t('table.empty')
  const columns: ColumnsType<CabinetBindRecord> = [
    { title: t('cabinet.binds.time'), dataIndex: 'operate_time', width: 180, render: formatDateTime },
    {
      title: t('cabinet.binds.type'),
      dataIndex: 'update_type',
      width: 120,
      render: (v: number) => label('cabinet_update_type', v),
    },
    { title: t('cabinet.binds.operator'), dataIndex: 'operator', width: 160 },
    {
      title: t('cabinet.binds.device'),
      dataIndex: 'device_sn',
      width: 180,
      render: (v: string | null) => v || dash,
    },
    {
      title: t('cabinet.binds.model'),
      dataIndex: 'device_model',
      width: 120,
      render: (v: string | null) => v || dash,
    },
    { title: t('cabinet.binds.agency'), dataIndex: 'agency_name' },
  ]
  return (
    <Modal
      open={cabinet !== null}
      onCancel={() => {
        setPage(1)
        onClose()
      }}
      footer={null}
      title={t('cabinet.binds.title', { sn: cabinet?.cabinet_sn ?? '' })}
      width="100vw"
      style={{ top: 0, maxWidth: '100vw', margin: 0, paddingBottom: 0 }}
      styles={{ container: { minHeight: '100vh', borderRadius: 0 } }}
      destroyOnHidden
      data-testid="cabinet-binds"
    >
      <QueryTable<CabinetBindRecord>
        size="middle"
        columns={columns}
        rowKey={(r) => r.id}
        query={binds}
        paging={{ current: page, pageSize: BIND_PAGE_SIZE, onChange: setPage, total: true }}
      />
    </Modal>
  )
}
