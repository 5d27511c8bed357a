import { MAP_DEVICE_STATUSES } from '@aed/contracts/dashboard'
import { Checkbox } from 'antd'
import { useTranslation } from 'react-i18next'
import { STATUS_HEX } from '../../../lib/deviceStatus'
import { useDict } from '../../../lib/useDict'
import type { MarkerLayer } from './mapLayers'

type Props = {
  statuses: readonly number[]
  onStatuses: (statuses: number[]) => void
  /** Devices per status in the region (the status distribution), when known. */
  counts: Record<number, number> | undefined
  layers: readonly MarkerLayer[]
  shownLayers: readonly string[]
  onLayers: (keys: string[]) => void
}

/**
 * The legend: a checkbox per status in its colour (offline reads 掉线 here, as the spec has it)
 * with its count, then one per marker layer (with a dot per colour its points may take besides
 * the layer's, named on hover). All ticked by default; toggling refetches.
 */
export function StatusLegend({ statuses, onStatuses, counts, layers, shownLayers, onLayers }: Props) {
  const { t } = useTranslation()
  const { label } = useDict()
  const toggle = <T,>(list: readonly T[], v: T, on: boolean) =>
    on ? [...list, v] : list.filter((x) => x !== v)
  return (
    <div className="dashboard-legend" data-testid="dashboard-legend">
      {MAP_DEVICE_STATUSES.map((s) => (
        <Checkbox
          key={s}
          checked={statuses.includes(s)}
          onChange={(e) => onStatuses(toggle(statuses, s, e.target.checked))}
          data-testid={`legend-${s}`}
        >
          <span className="dashboard-legend-dot" style={{ background: STATUS_HEX[s] }} />
          {s === 4 ? t('dashboard.legend.offline') : label('device_status', s)}
          {counts && <span className="dashboard-legend-count">{counts[s] ?? 0}</span>}
        </Checkbox>
      ))}
      {layers.map((layer) => (
        <Checkbox
          key={layer.key}
          checked={shownLayers.includes(layer.key)}
          onChange={(e) => onLayers(toggle(shownLayers, layer.key, e.target.checked))}
          title={layer.hint ? t(layer.hint) : undefined}
          data-testid={`legend-${layer.key}`}
        >
          <span className="dashboard-legend-dot dashboard-legend-ring" style={{ borderColor: layer.color }} />
          {t(layer.label)}
          {layer.states?.map((st) => (
            <span
              key={st.color}
              className="dashboard-legend-dot dashboard-legend-state"
              style={{ background: st.color }}
              title={t(st.label)}
              role="img"
              aria-label={t(st.label)}
            />
          ))}
        </Checkbox>
      ))}
    </div>
  )
}
