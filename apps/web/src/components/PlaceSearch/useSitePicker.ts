import type { MapAddress, MapSuggestion } from '@aed/contracts/map'
import { Form } from 'antd'
import { useState } from 'react'
import type { LatLon } from '../MapView/datum'
import { useWatchedPoint } from './AddressFields'

/**
 * The place search and the map picker over one form's `location`, `region`, `lat` and `lon`: a
 * found place or a picked point fills what the map service knows, and the map flies to a point
 * set elsewhere (a search result, typed coordinates once left).
 */
export function useSitePicker() {
  const form = Form.useFormInstance()
  const point = useWatchedPoint(form)
  const [focus, setFocus] = useState(0)
  const refocus = () => setFocus((n) => n + 1)

  const onPick = (p: MapSuggestion) => {
    form.setFieldsValue({
      ...(p.address_code ? { region: p.address_code } : {}),
      ...(p.location ? { lat: p.location.lat, lon: p.location.lon } : {}),
    })
    if (p.location) refocus()
  }

  const map = {
    value: point,
    focusKey: focus,
    onChange: (p: LatLon) => form.setFieldsValue({ lat: p.lat, lon: p.lon }),
    onAddress: (a: MapAddress) =>
      form.setFieldsValue({
        location: a.address,
        ...(a.address_code ? { region: a.address_code } : {}),
      }),
  }
  return { onPick, map, refocus }
}
