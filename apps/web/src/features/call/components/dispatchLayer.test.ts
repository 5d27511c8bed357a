import type { DispatchAlert } from '@aed/contracts/dispatch'
import { describe, expect, it } from 'vitest'
import { callDetail, dispatchAlert, dispatchOf } from '../../../test/callFixtures'
import { dispatchLayer } from './dispatchLayer'

const title = (a: DispatchAlert) => `${a.name} ${a.state}`
const CALL = { lat: 30.27, lon: 120.15 }

describe('dispatchLayer', () => {
  it('without a dispatch: the nearby devices and responders as they are, no lines', () => {
    const layer = dispatchLayer(callDetail(), title)
    expect(layer.devices.map((p) => p.key)).toEqual(['device-51', 'device-52'])
    expect(layer.responders).toEqual([expect.objectContaining({ key: 'responder-61', title: '李医生 260m' })])
    expect(layer.lines).toEqual([])
  })

  it('adds the AEDs the dispatch chose from, draws an alerted responder at home with a dashed way to the patient', () => {
    const layer = dispatchLayer(callDetail({ dispatch: dispatchOf() }), title)
    expect(layer.devices.map((p) => p.key)).toEqual(['device-51', 'device-52', 'device-53'])
    expect(layer.responders).toEqual([
      expect.objectContaining({ key: 'responder-61', lat: 30.272, lon: 120.149, title: '李医生 alerted' }),
    ])
    expect(layer.responders[0].emphasis).toBeUndefined()
    expect(layer.lines).toEqual([
      { key: 'alert-1', path: [{ lat: 30.272, lon: 120.149 }, CALL], strong: false },
    ])
  })

  it('moves an accepted responder to their shared position, strong, by their AED (strong too) to the patient', () => {
    const alert = dispatchAlert({
      state: 'accepted',
      role: 'aed',
      device_sn: 'A640000051',
      lat: 30.275,
      lon: 120.145,
    })
    const layer = dispatchLayer(callDetail({ dispatch: dispatchOf({ alerts: [alert] }) }), title)
    expect(layer.responders).toEqual([
      expect.objectContaining({ key: 'responder-61', lat: 30.275, lon: 120.145, emphasis: 'strong' }),
    ])
    expect(layer.devices.find((p) => p.key === 'device-51')?.emphasis).toBe('strong')
    expect(layer.devices.find((p) => p.key === 'device-52')?.emphasis).toBeUndefined()
    expect(layer.lines).toEqual([
      {
        key: 'alert-1',
        path: [{ lat: 30.275, lon: 120.145 }, { lat: 30.271, lon: 120.151 }, CALL],
        strong: true,
      },
    ])
  })

  it('fades those not coming and draws no way for them; a responder with no known place is not drawn', () => {
    const alerts = [
      dispatchAlert({ state: 'declined' }),
      dispatchAlert({ id: 2, responder_id: 99, name: '远处的人', state: 'accepted' }),
    ]
    const layer = dispatchLayer(callDetail({ dispatch: dispatchOf({ alerts }) }), title)
    expect(layer.responders).toEqual([
      expect.objectContaining({ key: 'responder-61', emphasis: 'faint', title: '李医生 declined' }),
    ])
    expect(layer.lines).toEqual([])
  })
})
