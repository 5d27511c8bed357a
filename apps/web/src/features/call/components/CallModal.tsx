import type { MapSuggestion } from '@aed/contracts/map'
import { Col, DatePicker, Form, Input, Row } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { MapPicker } from '../../../components/MapPicker/MapPicker'
import type { LatLon } from '../../../components/MapView/datum'
import { PlaceSearch } from '../../../components/PlaceSearch/PlaceSearch'
import { DATE_TIME_FORMAT, todayInZone } from '../../../lib/datetime'
import { useFormReset } from '../../../lib/useFormReset'
import { validated } from '../../../lib/validated'
import { useCreateCall } from '../api/useCreateCall'
import { type CallFormValues, newCallValues, toCallForm } from './callFormValues'
import { callRules } from './callRules'
import { langOf } from './contractRule'
import { usePlaceFocus } from './usePlaceFocus'

export const CALL_DIALOG_WIDTH = 760

type Props = {
  open: boolean
  onClose: () => void
  /** The call was recorded: its id and place, for the page to select it. */
  onCreated: (id: number, place: LatLon) => void
}

/** 登记呼救: a call taken by phone, its place found by search or picked on the map (zoom 16), its time (now unless changed). */
export default function CallModal({ open, onClose, onCreated }: Props) {
  const { t, i18n } = useTranslation()
  const rules = callRules(langOf(i18n.language))
  const [form] = Form.useForm<CallFormValues>()
  const save = useCreateCall()
  const focus = usePlaceFocus()
  const { send, modal } = useFormDialog(save, {
    open,
    onClose,
    onDone: ({ id }) => {
      const place = form.getFieldValue('place') as LatLon
      onClose()
      onCreated(id, place)
    },
  })
  useFormReset(form, open ? 'new' : null)

  const found = (p: MapSuggestion) => {
    if (!p.location) return
    form.setFieldsValue({ place: p.location })
    void form.validateFields(['place'])
    focus.later()
  }
  const submit = async () => {
    const values = await validated(form)
    if (values) await send(toCallForm(values))
  }

  return (
    <FormModal
      {...modal}
      title={t('call.createTitle')}
      width={CALL_DIALOG_WIDTH}
      onOk={submit}
      testId="call-modal"
    >
      <Form form={form} layout="vertical" initialValues={newCallValues()} preserve={false} name="call">
        <Row gutter={24}>
          <Col span={12}>
            <Form.Item name="phone" label={t('call.phone')} rules={rules.phone} required>
              <Input maxLength={20} placeholder={t('call.phonePlaceholder')} data-testid="call-phone" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="call_time" label={t('call.callTime')} rules={rules.call_time}>
              <DatePicker
                showTime
                format={DATE_TIME_FORMAT}
                disabledDate={(d) => d.format('YYYY-MM-DD') > todayInZone().format('YYYY-MM-DD')}
                style={{ width: '100%' }}
                data-testid="call-time"
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="location" label={t('call.location')} rules={rules.location} required>
              <PlaceSearch
                placeholder={t('call.locationPlaceholder')}
                testId="call-location"
                onPick={found}
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="place"
              label={t('call.placeLabel')}
              rules={rules.place}
              required
              extra={t('call.placeHint')}
            >
              <MapPicker
                focusKey={focus.key}
                height={240}
                onAddress={(a) => form.setFieldsValue({ location: a.address })}
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="description" label={t('call.description')} rules={rules.description}>
              <Input.TextArea
                maxLength={500}
                showCount
                rows={3}
                placeholder={t('call.descriptionPlaceholder')}
                data-testid="call-description"
              />
            </Form.Item>
          </Col>
        </Row>
        <FormFreshStart />
      </Form>
    </FormModal>
  )
}
