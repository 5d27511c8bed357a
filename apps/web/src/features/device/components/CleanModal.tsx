import { CleanType, type CleanTypeValue } from '@aed/contracts/device-detail'
import { App, Checkbox, DatePicker, Form, Input } from 'antd'
import type { Dayjs } from 'dayjs'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { useDict } from '../../../lib/useDict'
import { useCleanInstallData } from '../api/useCleanInstallData'

type Values = {
  device_sn?: string
  data_type?: CleanTypeValue[]
  range?: [Dayjs | null, Dayjs | null] | null
}

type Props = {
  open: boolean
  /** Everything a device reported ('all') may be cleared too: the list's `can.clean_all` (system super administrators). */
  cleanAll: boolean
  onClose: () => void
}

/** 清除安装信息: a device's recorded rescues, warnings, offsets or faults in a date range, or everything it reported. */
export default function CleanModal({ open, cleanAll, onClose }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const dict = useDict()
  const [form] = Form.useForm<Values>()
  const clean = useCleanInstallData()
  const { send, modal } = useFormDialog(clean, { open, onClose })
  const types = [
    ...dict.options('clean_data_type').map((o) => ({ value: o.value as CleanTypeValue, label: o.label })),
    ...(cleanAll ? [{ value: CleanType.ALL as CleanTypeValue, label: t('device.cleanAll') }] : []),
  ]

  const submit = async () => {
    const v = form.getFieldsValue(true) as Values
    const sn = v.device_sn?.trim() ?? ''
    if (!sn) return message.error(t('device.clean.snMissing'))
    if (!v.data_type?.length) return message.error(t('device.clean.typeMissing'))
    await send({
      device_sn: sn,
      data_type: v.data_type,
      start_time: v.range?.[0]?.format('YYYY-MM-DD'),
      end_time: v.range?.[1]?.format('YYYY-MM-DD'),
    })
  }
  return (
    <FormModal
      {...modal}
      title={t('device.clean.title')}
      onOk={submit}
      okButtonProps={{ danger: true }}
      testId="device-clean-modal"
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="device_sn" label={t('device.sn')} required>
          <Input maxLength={32} placeholder={t('device.clean.snMissing')} data-testid="clean-sn" />
        </Form.Item>
        <Form.Item name="data_type" label={t('device.clean.types')} required>
          <Checkbox.Group options={types} data-testid="clean-types" />
        </Form.Item>
        <Form.Item name="range" label={t('device.clean.range')}>
          <DatePicker.RangePicker style={{ width: '100%' }} allowEmpty={[true, true]} />
        </Form.Item>
        <FormFreshStart />
      </Form>
    </FormModal>
  )
}
