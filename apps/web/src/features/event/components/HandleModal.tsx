import { type FaultEvent, HANDLE_NOTE_MAX, type OffsetEvent } from '@aed/contracts/event'
import { Descriptions, Form, Input } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { validated } from '../../../lib/validated'
import { useHandleEvent } from '../api/useHandleEvent'

type Props = { event: FaultEvent | OffsetEvent | null; onClose: () => void }

/** 处理: the note on a fault or an offset (who and when are the server's); shows what is handled. */
export default function HandleModal({ event, onClose }: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ handle_note: string }>()
  const handle = useHandleEvent()
  const { send, modal } = useFormDialog(handle, { open: event !== null, onClose })
  const e = (key: string) => t(`event.${key}`)

  const submit = async () => {
    if (!event) return
    if ((await validated(form)) !== null)
      await send({ id: event.id, handle_note: form.getFieldValue('handle_note').trim() })
  }
  const what = event && ('fault' in event ? event.fault : event.offset_location)

  return (
    <FormModal {...modal} title={e('handleTitle')} width={520} onOk={submit} testId="event-handle-modal">
      {event && (
        <Descriptions
          size="small"
          column={1}
          items={[
            { key: 'sn', label: e('handleDevice'), children: `${event.device_sn}（${event.model}）` },
            ...(what
              ? [{ key: 'what', label: 'fault' in event ? e('fault') : e('offsetLocation'), children: what }]
              : []),
          ]}
        />
      )}
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        name="event-handle"
        initialValues={{ handle_note: event?.handle_note ?? '' }}
        style={{ marginTop: 16 }}
      >
        <Form.Item
          name="handle_note"
          label={e('handleNote')}
          rules={[{ required: true, whitespace: true, message: e('handleNoteRequired') }]}
        >
          <Input.TextArea
            rows={4}
            maxLength={HANDLE_NOTE_MAX}
            showCount
            placeholder={e('handleNotePlaceholder')}
            data-testid="event-handle-note"
          />
        </Form.Item>
        <FormFreshStart />
      </Form>
    </FormModal>
  )
}
