import { Col, Input } from 'antd'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import { MapPicker } from '../../../components/MapPicker/MapPicker'
import { CoordinateInputs, LocationField } from '../../../components/PlaceSearch/AddressFields'
import { useSitePicker } from '../../../components/PlaceSearch/useSitePicker'
import { RegionPicker } from '../../../components/RegionPicker/RegionPicker'

/**
 * Where the device is: the navigation address with place search, region and exact location, and
 * the map picker. A found place or a picked point fills what the map service knows; the rest is
 * typed or chosen by hand.
 */
export function DeviceSiteFields({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  const site = useSitePicker()

  return (
    <>
      <Col span={24}>
        <LocationField
          label={t('device.location')}
          required={t('device.required.location')}
          disabled={disabled}
          testId="device-location"
          onPick={site.onPick}
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
        <MapPicker {...site.map} disabled={disabled} />
        <CoordinateInputs
          disabled={disabled}
          placeholders={{ lat: t('map.lat'), lon: t('map.lon') }}
          width="50%"
          testId="device"
          onBlur={site.refocus}
          className="device-coordinates"
        />
      </FieldCol>
    </>
  )
}
