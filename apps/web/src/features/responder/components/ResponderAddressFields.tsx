import type { MapSuggestion } from '@aed/contracts/map'
import { Col, Form, Input } from 'antd'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import { MapPicker } from '../../../components/MapPicker/MapPicker'
import {
  CoordinateInputs,
  LocationField,
  useWatchedPoint,
} from '../../../components/PlaceSearch/AddressFields'
import type { ResponderFormValues } from './responderFormValues'

/** The wait between a place found by the search and the map zooming to it (zoom 16). */
export const SEARCH_ZOOM_DELAY_MS = 500

type Props = {
  disabled: boolean
  /** False while a new registration has no phone; says 请先填写电话！ unless `quiet`. */
  phoneReady: (quiet?: boolean) => boolean
}

/**
 * 常驻地址: the address search, the specific location, and the map picker; a found place or a
 * picked point fills the region code and the coordinates the map service knows.
 */
export function ResponderAddressFields({ disabled, phoneReady }: Props) {
  const { t } = useTranslation()
  const form = Form.useFormInstance<ResponderFormValues>()
  const point = useWatchedPoint(form)
  const [focus, setFocus] = useState(0)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])

  const found = (p: MapSuggestion) => {
    if (!phoneReady()) return
    form.setFieldsValue({
      ...(p.address_code ? { address_code: p.address_code } : {}),
      ...(p.location ? { lat: p.location.lat, lon: p.location.lon } : {}),
    })
    clearTimeout(timer.current)
    if (p.location) timer.current = setTimeout(() => setFocus((n) => n + 1), SEARCH_ZOOM_DELAY_MS)
  }

  return (
    <>
      <Col span={16}>
        <LocationField
          label={t('responder.location')}
          required={t('responder.required.location')}
          disabled={disabled}
          testId="responder-location"
          onPick={found}
        />
      </Col>
      <FieldCol span={8} name="location_desc" label={t('responder.locationDesc')}>
        <Input
          maxLength={200}
          disabled={disabled}
          placeholder={t('responder.required.locationDesc')}
          data-testid="responder-location-desc"
        />
      </FieldCol>
      <Form.Item name="address_code" hidden>
        <Input />
      </Form.Item>
      <Col span={24}>
        <MapPicker
          value={point}
          focusKey={focus}
          disabled={disabled}
          height={180}
          onChange={(p) => phoneReady() && form.setFieldsValue({ lat: p.lat, lon: p.lon })}
          onAddress={(a) =>
            phoneReady(true) &&
            form.setFieldsValue({
              location: a.address,
              ...(a.address_code ? { address_code: a.address_code } : {}),
            })
          }
        />
        <CoordinateInputs
          disabled={disabled}
          placeholders={{ lat: t('map.lat'), lon: t('map.lon') }}
          width="50%"
          testId="responder"
          onBlur={() => setFocus((n) => n + 1)}
          className="responder-coordinates"
        />
      </Col>
    </>
  )
}
