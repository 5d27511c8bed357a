import {
  DEVICE_EXPORT_DAYS,
  EXPORT_FILE_NAMES,
  ExportType,
  type ExportTypeValue,
} from '@aed/contracts/device-io'
import { App, DatePicker, Form, Radio } from 'antd'
import type { Dayjs } from 'dayjs'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { todayInZone } from '../../../lib/datetime'
import { downloadUrl } from '../../../lib/download'
import { useDataExport } from '../api/useDataExport'

type Values = { export_type: ExportTypeValue; range: [Dayjs, Dayjs] }

const TYPES = [
  ExportType.DEVICES,
  ExportType.INSPECTIONS,
  ExportType.SELF_CHECKS,
  ExportType.RESCUES,
] as const

/** 导出: what to export and the date range (the last 7 days by default); the server writes the file. */
export default function ExportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<Values>()
  const exporter = useDataExport()
  const today = todayInZone()
  const initial: Values = {
    export_type: ExportType.DEVICES,
    range: [today.subtract(DEVICE_EXPORT_DAYS, 'day'), today],
  }
  const submit = async () => {
    const v = await form.validateFields().catch(() => null)
    if (!v) return
    try {
      const { file_url, count } = await exporter.mutateAsync({
        export_type: v.export_type,
        start_time: v.range[0].format('YYYY-MM-DD'),
        end_time: v.range[1].format('YYYY-MM-DD'),
      })
      downloadUrl(file_url, EXPORT_FILE_NAMES[v.export_type])
      message.success(t('device.exported', { count }))
      onClose()
    } catch {
      // Shown by the request client.
    }
  }
  return (
    <FormModal
      open={open}
      onClose={onClose}
      saving={exporter.isPending}
      title={t('device.export')}
      onOk={submit}
      okText={t('device.export')}
      testId="device-export-modal"
    >
      <Form form={form} layout="vertical" initialValues={initial} preserve={false}>
        <Form.Item name="export_type" label={t('device.exportType')}>
          <Radio.Group
            options={TYPES.map((v) => ({ value: v, label: t(`device.exportTypes.${v}`) }))}
            data-testid="device-export-type"
          />
        </Form.Item>
        <Form.Item
          name="range"
          label={t('device.exportRange')}
          rules={[{ required: true, message: t('timeRange.required') }]}
        >
          <DatePicker.RangePicker
            style={{ width: '100%' }}
            allowClear={false}
            disabledDate={(d) => d.isAfter(todayInZone(), 'day')}
          />
        </Form.Item>
        <FormFreshStart />
      </Form>
    </FormModal>
  )
}
