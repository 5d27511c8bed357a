import { AGENCY_PHONE } from '@aed/contracts/agency'
import { Form, Input, Row, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
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
      <FieldCol
        span={12}
        name="name"
        label={t('agency.name')}
        rules={[{ max: 100, message: t('agency.tooLong') }]}
        required={t('agency.nameRequired')}
        whitespace
      >
        <Input placeholder={t('agency.nameRequired')} disabled={disabled} data-testid="agency-name" />
      </FieldCol>
      <FieldCol span={12} name="agency_type" label={t('agency.type')} required={t('agency.typeRequired')}>
        <Select
          placeholder={t('agency.typeRequired')}
          disabled={disabled}
          options={typeOptions.map((v) => ({ value: v, label: t(`agencyType.${v}`) }))}
          data-testid="agency-type"
        />
      </FieldCol>
      {type === 2 && (
        <>
          <FieldCol span={12} name="parent_id" label={t('agency.parent')}>
            <Select
              allowClear
              placeholder={t('agency.parentPlaceholder')}
              disabled={disabled}
              options={parents.map((p) => ({ value: p.id, label: p.name }))}
              data-testid="agency-parent"
            />
          </FieldCol>
          <FieldCol span={12} label={t('agency.level')}>
            <Input value={t('agency.levelText', { level })} disabled data-testid="agency-level" />
          </FieldCol>
        </>
      )}
      <FieldCol
        span={12}
        name="contact_name"
        label={t('agency.contact')}
        rules={[{ max: 50, message: t('agency.tooLong') }]}
        required={t('agency.contactRequired')}
        whitespace
      >
        <Input
          placeholder={t('agency.contactPlaceholder')}
          disabled={disabled}
          data-testid="agency-contact"
        />
      </FieldCol>
      <FieldCol
        span={12}
        name="phone"
        label={t('agency.phone')}
        rules={[{ pattern: AGENCY_PHONE, message: t('agency.phoneWrong') }]}
        required={t('agency.phoneRequired')}
        whitespace
      >
        <Input placeholder={t('agency.phoneRequired')} disabled={disabled} data-testid="agency-phone" />
      </FieldCol>
      <FieldCol
        span={12}
        name="region"
        label={t('agency.region')}
        required
        rules={[{ validator: toDistrict }]}
      >
        <RegionPicker disabled={disabled} style={{ width: '100%' }} />
      </FieldCol>
      <FieldCol
        span={12}
        name="location"
        label={t('agency.location')}
        rules={[{ max: 200, message: t('agency.tooLong') }]}
      >
        <Input
          placeholder={t('agency.locationPlaceholder')}
          disabled={disabled}
          data-testid="agency-location"
        />
      </FieldCol>
    </Row>
  )
}
