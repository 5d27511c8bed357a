import { AimOutlined } from '@ant-design/icons'
import { Button, Col, Form, Tooltip } from 'antd'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import {
  CoordinateInputs,
  LocationField,
  useWatchedPoint,
} from '../../../components/PlaceSearch/AddressFields'
import { useReverseAddress } from '../../../components/PlaceSearch/useReverseAddress'
import { RegionPicker } from '../../../components/RegionPicker/RegionPicker'
import type { MemberFormValues } from './memberFormValues'

/**
 * Address of the user: a place search fills region and coordinates when the map knows them;
 * otherwise the region is picked by hand and the coordinates typed (or resolved by a map vendor).
 */
export function MemberAddressFields({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  const form = Form.useFormInstance<MemberFormValues>()
  const reverse = useReverseAddress()
  const point = useWatchedPoint(form)

  const resolve = async () => {
    if (!point) return
    try {
      const place = await reverse.mutateAsync(point)
      form.setFieldsValue({ location: place.address, region: place.address_code ?? undefined })
    } catch {
      // Shown by the request client (code 6: pick the region by hand).
    }
  }

  return (
    <>
      <Col span={16}>
        <LocationField
          label={t('member.location')}
          required={t('member.locationRequired')}
          disabled={disabled}
          testId="member-location"
          onPick={(p) =>
            form.setFieldsValue({
              region: p.address_code ?? undefined,
              ...(p.location ? { lat: p.location.lat, lon: p.location.lon } : {}),
            })
          }
        />
      </Col>
      <FieldCol span={8} name="region" label={t('member.region')}>
        <RegionPicker disabled={disabled} style={{ width: '100%' }} />
      </FieldCol>
      <FieldCol span={16} label={t('member.coordinates')} required tooltip={t('member.coordinatesHint')}>
        <CoordinateInputs
          disabled={disabled}
          placeholders={{ lat: t('member.lat'), lon: t('member.lon') }}
          width="45%"
          testId="member"
        >
          <Tooltip title={t('member.resolve')}>
            <Button
              icon={<AimOutlined />}
              onClick={resolve}
              loading={reverse.isPending}
              disabled={disabled || !point}
              aria-label={t('member.resolve')}
            />
          </Tooltip>
        </CoordinateInputs>
      </FieldCol>
    </>
  )
}
