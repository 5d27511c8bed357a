import { AGENCY_PHONE } from '@aed/contracts/agency'
import { Col, Form, Input, Row, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { RegionPicker } from '../../../components/RegionPicker/RegionPicker'
import { endsAtLeaf, pathOf } from '../../../components/RegionPicker/regionOptions'
import { useRegionOptions } from '../../../components/RegionPicker/useRegionOptions'
import type { AgencyFormValues } from './agencyFormValues'

type Props = {
  typeOptions: number[]
  parents: { id: number; name: string }[]
  /** Level shown for the organisation: 'N级机构'. */
  level: number
  disabled: boolean
}

/** The fields of the organisation dialog; parent and level only for an ordinary organisation. */
export function AgencyFormFields({ typeOptions, parents, level, disabled }: Props) {
  const { t } = useTranslation()
  const regions = useRegionOptions()
  const type = Form.useWatch<AgencyFormValues['agency_type']>('agency_type')
  const toDistrict = (_: unknown, v: AgencyFormValues['region']) => {
    const path = typeof v === 'string' ? pathOf(regions.data ?? [], v) : v
    return path?.length && endsAtLeaf(regions.data ?? [], path)
      ? Promise.resolve()
      : Promise.reject(new Error(t('agency.toDistrict')))
  }

  return (
    <Row gutter={24}>
      <Col span={12}>
        <Form.Item
          name="name"
          label={t('agency.name')}
          rules={[
            { required: true, whitespace: true, message: t('agency.nameRequired') },
            { max: 100, message: t('agency.tooLong') },
          ]}
        >
          <Input placeholder={t('agency.nameRequired')} disabled={disabled} data-testid="agency-name" />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="agency_type"
          label={t('agency.type')}
          rules={[{ required: true, message: t('agency.typeRequired') }]}
        >
          <Select
            placeholder={t('agency.typeRequired')}
            disabled={disabled}
            options={typeOptions.map((v) => ({ value: v, label: t(`agencyType.${v}`) }))}
            data-testid="agency-type"
          />
        </Form.Item>
      </Col>
      {type === 2 && (
        <>
          <Col span={12}>
            <Form.Item name="parent_id" label={t('agency.parent')}>
              <Select
                allowClear
                placeholder={t('agency.parentPlaceholder')}
                disabled={disabled}
                options={parents.map((p) => ({ value: p.id, label: p.name }))}
                data-testid="agency-parent"
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label={t('agency.level')}>
              <Input value={t('agency.levelText', { level })} disabled data-testid="agency-level" />
            </Form.Item>
          </Col>
        </>
      )}
      <Col span={12}>
        <Form.Item
          name="contact_name"
          label={t('agency.contact')}
          rules={[
            { required: true, whitespace: true, message: t('agency.contactRequired') },
            { max: 50, message: t('agency.tooLong') },
          ]}
        >
          <Input
            placeholder={t('agency.contactPlaceholder')}
            disabled={disabled}
            data-testid="agency-contact"
          />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="phone"
          label={t('agency.phone')}
          rules={[
            { required: true, whitespace: true, message: t('agency.phoneRequired') },
            { pattern: AGENCY_PHONE, message: t('agency.phoneWrong') },
          ]}
        >
          <Input placeholder={t('agency.phoneRequired')} disabled={disabled} data-testid="agency-phone" />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="region" label={t('agency.region')} required rules={[{ validator: toDistrict }]}>
          <RegionPicker disabled={disabled} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="location"
          label={t('agency.location')}
          rules={[{ max: 200, message: t('agency.tooLong') }]}
        >
          <Input
            placeholder={t('agency.locationPlaceholder')}
            disabled={disabled}
            data-testid="agency-location"
          />
        </Form.Item>
      </Col>
    </Row>
  )
}
