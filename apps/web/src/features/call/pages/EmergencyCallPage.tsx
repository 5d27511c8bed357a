import { Card, Tabs } from 'antd'
import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { LazyMount } from '../../../components/LazyMount'
import type { DeviceDetail, DeviceRef } from '../../../lib/deviceDetail'
import { RescueTab } from '../../rescue'
import { CallTab } from '../components/CallTab'
import { EmergencyMap } from '../components/EmergencyMap'
import type { MapLayer } from '../components/mapPoints'
import { SplitPanes } from '../components/SplitPanes'
import { tableBodyHeight } from '../components/tableBodyHeight'
import { useRescueLayer } from '../components/useRescueLayer'
import '../call.css'

/** The URL key of the tab: absent for 呼救事件, 'rescue' for 急救事件. */
const TAB = 'tab'
const RESCUE = 'rescue'
const NO_LAYER: MapLayer = { points: [], focus: null, onPointClick: () => {} }

type Opened = { device: DeviceRef; rescueEventId?: string }

/**
 * /emergency/call, 急救事件: the tabs 呼救事件 and 急救事件 with their filters, the map with its
 * legend over the list (panes resizable), the selected call's details beside the map. A device's
 * detail opens in `DeviceDetail`, which the app hands over from the device feature.
 */
export function EmergencyCallPage({ DeviceDetail }: { DeviceDetail?: DeviceDetail }) {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const rescueTab = params.get(TAB) === RESCUE
  const [filterSlot, setFilterSlot] = useState<HTMLDivElement | null>(null)
  const [overlaySlot, setOverlaySlot] = useState<HTMLDivElement | null>(null)
  const [callLayer, setCallLayer] = useState<MapLayer>(NO_LAYER)
  const [callId, setCallId] = useState<number | null>(null)
  const rescue = useRescueLayer()
  const [opened, setOpened] = useState<Opened | null>(null)
  const layer = rescueTab ? rescue.layer : callLayer

  // A tab starts from its own filters: those of the other list mean nothing to it.
  const switchTab = (key: string, filters: Record<string, string> = {}) =>
    setParams(() => {
      const next = new URLSearchParams(filters)
      if (key === RESCUE) next.set(TAB, RESCUE)
      return next
    })
  const openDevice = useCallback((device: DeviceRef) => setOpened({ device }), [])

  return (
    <div className="page emergency-page" data-testid="emergency-page">
      <Card size="small" className="emergency-head">
        <Tabs
          activeKey={rescueTab ? RESCUE : 'calls'}
          onChange={(key) => switchTab(key)}
          items={[
            { key: 'calls', label: <span data-testid="emergency-tab-calls">{t('call.tabs.calls')}</span> },
            { key: RESCUE, label: <span data-testid="emergency-tab-rescues">{t('call.tabs.rescues')}</span> },
          ]}
        />
        <div ref={setFilterSlot} className="emergency-filters" />
      </Card>
      <SplitPanes
        top={
          <EmergencyMap
            points={layer.points}
            lines={layer.lines}
            focus={layer.focus}
            onPointClick={layer.onPointClick}
          >
            <div ref={setOverlaySlot} className="emergency-overlay" />
          </EmergencyMap>
        }
        bottom={(height) =>
          rescueTab ? (
            <RescueTab
              filterSlot={filterSlot}
              bodyHeight={tableBodyHeight(height)}
              {...rescue.tab}
              onCall={(id) => {
                setCallId(id)
                switchTab('calls')
              }}
              onDevice={(r) =>
                setOpened({
                  device: { id: r.device_id, device_sn: r.device_sn },
                  rescueEventId: r.rescue_event_id,
                })
              }
            />
          ) : (
            <CallTab
              slots={{ filters: filterSlot, overlay: overlaySlot }}
              bodyHeight={tableBodyHeight(height)}
              selectedId={callId}
              onSelect={setCallId}
              onMap={setCallLayer}
              onDevice={openDevice}
              onRescue={(sn) => switchTab(RESCUE, { device_sn: sn })}
            />
          )
        }
      />
      {DeviceDetail && (
        <LazyMount when={opened !== null}>
          <DeviceDetail
            device={opened?.device ?? null}
            rescueEventId={opened?.rescueEventId}
            onClose={() => setOpened(null)}
          />
        </LazyMount>
      )}
    </div>
  )
}
