import { Col, Form, Input } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import { MapPicker } from '../../../components/MapPicker/MapPicker'
import {
  CoordinateInputs,
  LocationField,
  useWatchedPoint,
} from '../../../components/PlaceSearch/AddressFields'
import { RegionPicker } from '../../../components/RegionPicker/RegionPicker'
import type { DeviceFormValues } from './deviceFormValues'

/**
 * Where the device is: the navigation address with place search, region and exact location, and
 * the map picker. A found place or a picked point fills what the map service knows; the rest is
 * typed or chosen by hand.
 */
export function DeviceSiteFields({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  const form = Form.useFormInstance<DeviceFormValues>()
  const point = useWatchedPoint(form)
  const [focus, setFocus] = useState(0)

  return (
    <>
      <Col span={24}>
        <LocationField
          label={t('device.location')}
          required={t('device.required.location')}
          disabled={disabled}
          testId="device-location"
          onPick={(p) => {
            form.setFieldsValue({
              ...(p.address_code ? { region: p.address_code } : {}),
              ...(p.location ? { lat: p.location.lat, lon: p.location.lon } : {}),
            })
            if (p.location) setFocus((n) => n + 1)
          }}
        />
      </Col>
      <FieldCol span={12} name="region" label={t('device.region')}>
        <RegionPicker disabled={disabled} style={{ width: '100%' }} />
      </FieldCol>
      <FieldCol span={12} name="location_desc" label={t('device.locationDesc')}>
        <Input
          maxLength={200}
          disabled={disabled}
          placeholder={t('device.locationDescPlaceholder')}
          data-testid="device-location-desc"
        />
      </FieldCol>
      <FieldCol span={24} label={t('device.coordinates')} required>
        <MapPicker
          value={point}
          focusKey={focus}
          disabled={disabled}
          onChange={(p) => form.setFieldsValue({ lat: p.lat, lon: p.lon })}
          onAddress={(a) =>
            form.setFieldsValue({
              location: a.address,
              ...(a.address_code ? { region: a.address_code } : {}),
            })
          }
        />
        <CoordinateInputs
          disabled={disabled}
          placeholders={{ lat: t('map.lat'), lon: t('map.lon') }}
          width="50%"
          testId="device"
          onBlur={() => setFocus((n) => n + 1)}
          className="device-coordinates"
        />
      </FieldCol>
    </>
  )
}
