import { deviceDetailApi } from '@aed/contracts/device-detail'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { device } from '../../../test/deviceFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import DeviceDetailDrawer from './DeviceDetailDrawer'

const asked: MockCall[] = []
freshConsole({ reset: () => asked.splice(0), signedIn: userInfo({ permissions: { device: 'EDIT' } }) })

describe('DeviceDetailDrawer opened from a rescue', () => {
  it('names the rescue, and asks the usage log and the record tabs for that rescue only', async () => {
    mockApi([
      recordOn(deviceDetailApi.single, asked, ({ query }) =>
        query.get('data_type') === 'base'
          ? { code: 0, data: device({ device_sn: 'A640000051', status: 1, status_text: '预警' }) }
          : { code: 0, data: { count: 0, resource: [] } },
      ),
      recordOn(deviceDetailApi.page, asked, () => ({ code: 0, data: { count: 0, resource: [] } })),
    ])
    renderWithProviders(
      <DeviceDetailDrawer
        device={{ id: 51, device_sn: 'A640000051' }}
        rescueEventId="R-1"
        onClose={() => {}}
      />,
    )
    expect(await screen.findByTestId('device-detail-rescue')).toHaveTextContent('急救事件 R-1')
    expect((await screen.findAllByTestId('status-1'))[0]).toHaveTextContent('预警')
    await userEvent.click(screen.getByRole('tab', { name: '使用日志' }))
    await userEvent.click(screen.getByRole('tab', { name: '预警' }))
    await waitFor(() => expect(asked).toHaveLength(3))
    const scoped = asked.filter((c) => c.query.get('data_type') !== 'base')
    expect(scoped.map((c) => [c.query.get('data_type'), c.query.get('rescue_event_id')])).toEqual([
      ['usage_log', 'R-1'],
      ['early_warn', 'R-1'],
    ])
  })
})
