import { Col, Form, Input, InputNumber, Space } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MapPicker } from '../../../components/MapPicker/MapPicker'
import { PlaceSearch } from '../../../components/PlaceSearch/PlaceSearch'
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
  const lat = Form.useWatch('lat', form)
  const lon = Form.useWatch('lon', form)
  const [focus, setFocus] = useState(0)
  const point = typeof lat === 'number' && typeof lon === 'number' ? { lat, lon } : null

  return (
    <>
      <Col span={24}>
        <Form.Item
          name="location"
          label={t('device.location')}
          rules={[{ required: true, whitespace: true, message: t('device.required.location') }]}
        >
          <PlaceSearch
            disabled={disabled}
            placeholder={t('device.required.location')}
            testId="device-location"
            onPick={(p) => {
              form.setFieldsValue({
                ...(p.address_code ? { region: p.address_code } : {}),
                ...(p.location ? { lat: p.location.lat, lon: p.location.lon } : {}),
              })
              if (p.location) setFocus((n) => n + 1)
            }}
          />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="region" label={t('device.region')}>
          <RegionPicker disabled={disabled} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="location_desc" label={t('device.locationDesc')}>
          <Input
            maxLength={200}
            disabled={disabled}
            placeholder={t('device.locationDescPlaceholder')}
            data-testid="device-location-desc"
          />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item label={t('device.coordinates')} required>
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
          <Space.Compact block className="device-coordinates">
            <Form.Item name="lat" noStyle>
              <InputNumber
                min={-90}
                max={90}
                step={0.000001}
                disabled={disabled}
                placeholder={t('map.lat')}
                style={{ width: '50%' }}
                onBlur={() => setFocus((n) => n + 1)}
                data-testid="device-lat"
              />
            </Form.Item>
            <Form.Item name="lon" noStyle>
              <InputNumber
                min={-180}
                max={180}
                step={0.000001}
                disabled={disabled}
                placeholder={t('map.lon')}
                style={{ width: '50%' }}
                onBlur={() => setFocus((n) => n + 1)}
                data-testid="device-lon"
              />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
      </Col>
    </>
  )
}
