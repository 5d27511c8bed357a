import { useTranslation } from 'react-i18next'
import { useDict } from '../../../lib/useDict'
import { KIND_HEX, LEGEND_KINDS } from './mapPoints'

/** The spec's marker legend: the device statuses 0-4, then responders, calls, rescues and devices near a call. */
export function MapLegend() {
  const { t } = useTranslation()
  const { label } = useDict()
  return (
    <ul className="emergency-legend" data-testid="emergency-legend">
      {LEGEND_KINDS.map((kind) => (
        <li key={kind} data-testid={`legend-${kind}`}>
          <span className="emergency-legend-dot" style={{ background: KIND_HEX[kind] }} />
          {kind <= 4 ? label('device_status', kind) : t(`call.legend.${kind}`)}
        </li>
      ))}
    </ul>
  )
}
