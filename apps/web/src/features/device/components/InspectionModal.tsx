import { DatePicker, Form, Input, Radio } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { DATE_TIME_FORMAT } from '../../../lib/datetime'
import { useDict } from '../../../lib/useDict'
import { useSession } from '../../../lib/useSession'
import { validated } from '../../../lib/validated'
import { useRecordInspection } from '../api/useRecordInspection'
import { InspectionPhotosField } from './InspectionPhotosField'

/** The contract's limits of the text fields. */
const CONTENT_MAX = 500
const INSPECTOR_MAX = 50

type Values = {
  inspect_status: 0 | 1
  process_content?: string
  inspector_name: string
  inspect_time: Dayjs | null
  imgs?: string[]
}

type Props = { sn: string; open: boolean; onClose: () => void }

const future = (d: Dayjs) => d.isAfter(dayjs())

/** 记录巡检: the result, what was done, who inspected and when (not in the future), up to two photos. */
export default function InspectionModal({ sn, open, onClose }: Props) {
  const { t } = useTranslation()
  const { userInfo } = useSession()
  const { options } = useDict()
  const [form] = Form.useForm<Values>()
  const record = useRecordInspection()
  const { send, modal } = useFormDialog(record, { open, onClose })
  const i = (key: string) => t(`device.inspection.${key}`)

  const submit = async () => {
    if ((await validated(form)) === null) return
    const v = form.getFieldsValue(true) as Values
    await send({
      device_sn: sn,
      inspect_status: v.inspect_status,
      process_content: v.process_content?.trim() ?? '',
      inspector_name: v.inspector_name.trim(),
      inspect_time: (v.inspect_time as Dayjs).format(),
      imgs: v.imgs ?? [],
    })
  }

  return (
    <FormModal {...modal} title={i('title')} width={560} onOk={submit} testId="inspection-modal">
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        name="inspection"
        initialValues={{
          inspect_status: 1,
          inspector_name: userInfo?.user_name ?? '',
          inspect_time: dayjs(),
        }}
      >
        <Form.Item
          name="inspect_status"
          label={i('status')}
          rules={[{ required: true, message: i('statusRequired') }]}
        >
          <Radio.Group options={options('inspect_status')} data-testid="inspection-status" />
        </Form.Item>
        <Form.Item name="process_content" label={i('content')}>
          <Input.TextArea rows={3} maxLength={CONTENT_MAX} showCount data-testid="inspection-content" />
        </Form.Item>
        <Form.Item
          name="inspector_name"
          label={i('inspector')}
          rules={[{ required: true, whitespace: true, message: i('inspectorRequired') }]}
        >
          <Input maxLength={INSPECTOR_MAX} data-testid="inspection-inspector" />
        </Form.Item>
        <Form.Item
          name="inspect_time"
          label={i('time')}
          rules={[
            { required: true, message: i('timeRequired') },
            {
              validator: (_, v: Dayjs | null) =>
                v && future(v) ? Promise.reject(new Error(i('timeFuture'))) : Promise.resolve(),
            },
          ]}
        >
          <DatePicker
            showTime
            format={DATE_TIME_FORMAT}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            style={{ width: '100%' }}
            data-testid="inspection-time"
          />
        </Form.Item>
        <Form.Item name="imgs" label={i('photo')}>
          <InspectionPhotosField />
        </Form.Item>
        <FormFreshStart />
      </Form>
    </FormModal>
  )
}
