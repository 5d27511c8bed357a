import type { ThirdPartyAed } from '@aed/contracts/review'
import { App, Col, Form, Input, Row, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { MapPicker } from '../../../components/MapPicker/MapPicker'
import { CoordinateInputs, LocationField } from '../../../components/PlaceSearch/AddressFields'
import { useSitePicker } from '../../../components/PlaceSearch/useSitePicker'
import { RegionPicker } from '../../../components/RegionPicker/RegionPicker'
import { useFormReset } from '../../../lib/useFormReset'
import { useMessageText } from '../../../lib/useMessageText'
import { useEditThirdPartyAed } from '../api/useEditThirdPartyAed'
import { InstallImagesField } from './InstallImagesField'
import {
  editProblems,
  fromThirdPartyAed,
  type ThirdPartyFormValues,
  toEditBody,
} from './thirdPartyFormValues'
import { useBrandOptions } from './useBrandOptions'

type Props = { aed: ThirdPartyAed | null; onClose: () => void }

/**
 * 修改第三方设备信息 (update_type 2): brand, the place by search or on the map (zoom 16), the
 * region and detailed location, and one or two site photos. Without the row's can.edit the form
 * is shown disabled and OK says 暂无权限!.
 */
export default function ThirdPartyAedModal({ aed, onClose }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const text = useMessageText()
  const [form] = Form.useForm<ThirdPartyFormValues>()
  const save = useEditThirdPartyAed()
  const { send, modal } = useFormDialog(save, { open: aed !== null, onClose })
  const canEdit = aed?.can.edit ?? false
  const required = text('AED_LOCATION_REQUIRED')
  const brands = useBrandOptions()
  useFormReset(form, aed ? String(aed.id) : null)

  const submit = async () => {
    if (!aed) return
    if (!canEdit) return void message.error(t('common.noPermission'))
    const body = toEditBody(form.getFieldsValue(true) as ThirdPartyFormValues)
    const problems = editProblems(body)
    if (problems.length > 0) {
      form.setFields(
        problems.map((p) => ({
          name: p.field,
          errors: [text(p.key)],
        })),
      )
      return
    }
    await send({ id: aed.id, body })
  }

  return (
    <FormModal {...modal} title={t('review.editTitle')} width={900} onOk={submit} testId="review-aed-modal">
      {aed && (
        <Form
          form={form}
          layout="vertical"
          initialValues={fromThirdPartyAed(aed)}
          preserve={false}
          name="review-aed"
          disabled={!canEdit}
        >
          <Row gutter={24}>
            <FieldCol span={12} name="brand" label={t('review.brand')} required>
              <Select options={brands} placeholder={text('BRAND_REQUIRED')} data-testid="review-aed-brand" />
            </FieldCol>
            <FieldCol span={12} name="region" label={t('review.region')}>
              <RegionPicker style={{ width: '100%' }} />
            </FieldCol>
            <PlaceFields disabled={!canEdit} required={required} />
            <FieldCol span={24} name="install_imgs" label={t('review.installImgs')} required>
              <InstallImagesField disabled={!canEdit} />
            </FieldCol>
          </Row>
          <FormFreshStart />
        </Form>
      )}
    </FormModal>
  )
}

/** The install address with place search, the detailed location, and the map picker. */
function PlaceFields({ disabled, required }: { disabled: boolean; required: string }) {
  const { t } = useTranslation()
  const site = useSitePicker()
  return (
    <>
      <Col span={12}>
        <LocationField
          label={t('review.location')}
          required={required}
          disabled={disabled}
          testId="review-aed-location"
          onPick={site.onPick}
        />
      </Col>
      <FieldCol span={12} name="location_desc" label={t('review.locationDesc')}>
        <Input maxLength={200} data-testid="review-aed-location-desc" />
      </FieldCol>
      <FieldCol span={24} label={t('review.coordinates')} required>
        <MapPicker {...site.map} disabled={disabled} height={240} />
        <CoordinateInputs
          disabled={disabled}
          placeholders={{ lat: t('map.lat'), lon: t('map.lon') }}
          width="50%"
          testId="review-aed"
          onBlur={site.refocus}
        />
      </FieldCol>
    </>
  )
}
