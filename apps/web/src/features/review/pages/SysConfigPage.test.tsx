import { reviewApi } from '@aed/contracts/review'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { SysConfigPage } from './SysConfigPage'

const saves: MockCall[] = []
const stored = (edit: boolean) => ({
  call_event_notify_aid_volunteer: 0 as const,
  xcx_display_third_party_aed: 1 as const,
  update_time: null,
  updator: null,
  can: { edit },
})

function api(edit: boolean) {
  return mockApi([
    on(reviewApi.sysConfig, () => ({ code: 0, data: stored(edit) })),
    recordOn(reviewApi.saveSysConfig, saves, ({ body }) => ({
      code: 0,
      msg: '保存成功',
      data: { ...stored(edit), ...(body as object), updator: '管理员', update_time: '2026-03-01T02:00:00Z' },
    })),
  ])
}

freshConsole({ reset: () => saves.splice(0), signedIn: userInfo({ agency_type: 0 }) })

describe('SysConfigPage', () => {
  it('shows the two switches and saves them: 保存成功', async () => {
    api(true)
    renderWithProviders(<SysConfigPage />)
    expect(await screen.findByText('呼救事件通知公共志愿者')).toBeInTheDocument()
    expect(screen.getByText('小程序显示第三方AED')).toBeInTheDocument()
    const notify = screen.getByTestId('sys-config-call_event_notify_aid_volunteer')
    expect(notify.querySelector('input:checked')).toHaveAttribute('value', '0')
    const user = userEvent.setup()
    await user.click(screen.getAllByRole('radio', { name: '是' })[0])
    await user.click(screen.getByTestId('sys-config-save'))
    expect(await screen.findByText('保存成功')).toBeInTheDocument()
    expect(saves[0].body).toEqual({ call_event_notify_aid_volunteer: 1, xcx_display_third_party_aed: 1 })
    expect(await screen.findByText(/管理员 于/)).toBeInTheDocument()
  })

  it('hides 保存 and disables the switches without can.edit', async () => {
    api(false)
    renderWithProviders(<SysConfigPage />)
    await screen.findByText('呼救事件通知公共志愿者')
    expect(screen.queryByTestId('sys-config-save')).toBeNull()
    await waitFor(() => expect(screen.getAllByRole('radio')[0]).toBeDisabled())
  })
})
