import type { InspectRow } from '@aed/contracts/device-detail'
import { PlusOutlined } from '@ant-design/icons'
import { Button } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LazyMount } from '../../../components/LazyMount'
import { RecordTab } from './RecordTab'

const InspectionModal = lazy(() => import('./InspectionModal'))

type Props = {
  sn: string
  active: boolean
  columns: ColumnsType<InspectRow>
  canRecord: boolean
  rescueEventId?: string
}

/** The detail's inspections, and 记录巡检 for members who may change devices. */
export function InspectTab({ sn, active, columns, canRecord, rescueEventId }: Props) {
  const { t } = useTranslation()
  const [recording, setRecording] = useState(false)
  return (
    <>
      {canRecord && (
        <div className="device-tab-actions">
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setRecording(true)}
            data-testid="inspection-record"
          >
            {t('device.inspection.record')}
          </Button>
        </div>
      )}
      <RecordTab<InspectRow>
        sn={sn}
        type="inspect"
        active={active}
        columns={columns}
        rescueEventId={rescueEventId}
      />
      <LazyMount when={recording}>
        <InspectionModal sn={sn} open={recording} onClose={() => setRecording(false)} />
      </LazyMount>
    </>
  )
}
