import { rescueApi } from '@aed/contracts/rescue'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { rescueRow } from '../../../test/callFixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { RescueTab } from './RescueTab'

const download = vi.hoisted(() => vi.fn())
vi.mock('../../../lib/download', () => ({ downloadUrl: download }))

const asked: MockCall[] = []
freshConsole({
  reset: () => {
    download.mockReset()
    asked.splice(0)
  },
})

function renderTab() {
  mockApi([
    on(rescueApi.list, () => ({
      code: 0,
      data: {
        count: 3,
        resource: [
          rescueRow(),
          rescueRow({ id: 8, call: null, return_state: 'not_returned', has_ecg: false, ecg_file_url: null }),
          rescueRow({ id: 9, call: null, return_state: null, event_lat: null, event_lon: null }),
        ],
      },
    })),
    recordOn(rescueApi.fileDownload, asked, () => ({ code: 1, msg: '文件未上传！' })),
  ])
  const props = { onSelect: vi.fn(), onRows: vi.fn(), onCall: vi.fn(), onDevice: vi.fn() }
  renderWithProviders(<RescueTab filterSlot={null} selectedId={null} {...props} />)
  return props
}

describe('RescueTab', () => {
  it('lists the rescues with the linked call and the AED’s return, and hands its rows to the map', async () => {
    const props = renderTab()
    const first = within(await screen.findByTestId('row-7'))
    expect(first.getByText('文三路地铁站B口')).toBeInTheDocument()
    expect(first.getByText('D100')).toBeInTheDocument()
    expect(first.getByText('30.271')).toBeInTheDocument()
    expect(first.getByText('#1')).toBeInTheDocument()
    expect(within(screen.getByTestId('row-8')).getByText('超时未归还')).toBeInTheDocument()
    expect(within(screen.getByTestId('row-9')).getAllByText('-').length).toBeGreaterThan(0)
    expect(props.onRows).toHaveBeenLastCalledWith(
      expect.arrayContaining([expect.objectContaining({ id: 9 })]),
    )
    await userEvent.click(first.getByText('#1'))
    expect(props.onCall).toHaveBeenCalledWith(1)
  })

  it('shows the server’s 文件未上传！ when a rescue has no ECG, and opens nothing', async () => {
    renderTab()
    await userEvent.click(await screen.findByTestId('rescue-ecg-8'))
    expect(await screen.findByText('文件未上传！')).toBeInTheDocument()
    expect(download).not.toHaveBeenCalled()
    expect(Object.fromEntries(asked[0].query)).toEqual({
      device_sn: 'A640000051',
      rescue_event_id: 'R-20260310-1',
    })
  })
})
