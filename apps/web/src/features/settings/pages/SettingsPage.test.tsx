import { agencyApi } from '@aed/contracts/agency'
import { DEFAULT_SETTINGS, settingsApi } from '@aed/contracts/settings'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { sessionStore } from '../../../lib/session'
import { tree } from '../../../test/adminFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { SettingsPage } from './SettingsPage'

const posted: unknown[] = []
function api() {
  return mockApi([
    on(agencyApi.tree, () => ({ code: 0, data: { resource: tree } })),
    on(settingsApi.get, () => ({
      code: 0,
      data: { ...DEFAULT_SETTINGS, location_offset: null, agency_id: 1 },
    })),
    on(settingsApi.save, ({ body }) => {
      posted.push(body)
      return { code: 0, msg: '保存成功', data: { ...DEFAULT_SETTINGS, agency_id: 1 } }
    }),
  ])
}

freshConsole({
  reset: () => {
    posted.length = 0
  },
})

describe('SettingsPage', () => {
  it('shows every option and saves the whole settings object', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 0, agency_id: 1, permissions: {} }))
    renderWithProviders(<SettingsPage />)
    expect(await screen.findByText('急救短信通知')).toBeInTheDocument()
    for (const label of [
      '异常状态短信通知',
      '异常短信发送时段',
      '位置偏移阈值',
      '电极片到期提醒',
      '电池到期提醒',
      '告警提示音',
      '告警升级时间（分钟）',
      '呼救自动结束时间',
      '呼救周边范围',
    ])
      expect(screen.getByText(label)).toBeInTheDocument()
    expect(screen.getByTestId('settings-offset')).toHaveTextContent('关闭')
    const user = userEvent.setup()
    await user.click(screen.getByLabelText('不发送', { selector: '[data-testid=settings-aid-sms] input' }))
    await user.click(screen.getByTestId('settings-save'))
    expect(await screen.findByText('保存成功')).toBeInTheDocument()
    expect(posted).toEqual([
      {
        agency_id: 1,
        aid_sms: 0,
        exec_status_sms: 2,
        exec_status_sms_time_period: ['08:00', '20:00'],
        location_offset: null,
        alarm_sound: 1,
        electrode_sheet_expire: 1,
        battery_expire: 1,
        alarm_escalate_minutes: 5,
        call_close_minutes: 120,
        call_radius_m: 1000,
      },
    ])
  })

  it('saves the escalation minutes and refuses a value outside 1-60', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 0, agency_id: 1, permissions: {} }))
    renderWithProviders(<SettingsPage />)
    await screen.findByText('告警升级时间（分钟）')
    const user = userEvent.setup()
    const input = screen.getByTestId('settings-escalate')
    await user.clear(input)
    await user.click(screen.getByTestId('settings-save'))
    expect(await screen.findByText('请输入1-60之间的整数')).toBeInTheDocument()
    expect(posted).toEqual([])
    await user.type(input, '15')
    await user.click(screen.getByTestId('settings-save'))
    expect(await screen.findByText('保存成功')).toBeInTheDocument()
    expect(posted).toEqual([expect.objectContaining({ alarm_escalate_minutes: 15 })])
  })

  it('shows the call settings with their defaults in minutes and metres, and refuses values out of range', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 0, agency_id: 1, permissions: {} }))
    renderWithProviders(<SettingsPage />)
    await screen.findByText('呼救自动结束时间')
    const close = screen.getByTestId('settings-call-close')
    const radius = screen.getByTestId('settings-call-radius')
    expect(close).toHaveValue('120')
    expect(radius).toHaveValue('1000')
    expect(close.closest('.ant-input-number')).toHaveTextContent('分钟')
    expect(radius.closest('.ant-input-number')).toHaveTextContent('米')
    const user = userEvent.setup()
    await user.clear(close)
    await user.clear(radius)
    await user.click(screen.getByTestId('settings-save'))
    expect(await screen.findByText('请输入10-1440之间的整数')).toBeInTheDocument()
    expect(screen.getByText('请输入100-5000之间的整数')).toBeInTheDocument()
    expect(posted).toEqual([])
    await user.type(close, '30')
    await user.type(radius, '2500')
    await user.click(screen.getByTestId('settings-save'))
    expect(await screen.findByText('保存成功')).toBeInTheDocument()
    expect(posted).toEqual([expect.objectContaining({ call_close_minutes: 30, call_radius_m: 2500 })])
  })

  it('disables the form for read-only members and offers no save', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { agency: 'READ_ONLY' } }))
    renderWithProviders(<SettingsPage />)
    await screen.findByText('急救短信通知')
    await waitFor(() => expect(screen.queryByTestId('settings-save')).toBeNull())
    expect(screen.getAllByRole('radio').every((r) => (r as HTMLInputElement).disabled)).toBe(true)
  })
})
