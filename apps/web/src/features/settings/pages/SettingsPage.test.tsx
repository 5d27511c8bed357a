import { agencyApi } from '@aed/contracts/agency'
import { DISPATCH_DEFAULTS } from '@aed/contracts/dispatch'
import { DEFAULT_SETTINGS, settingsApi } from '@aed/contracts/settings'
import { screen, waitFor, within } from '@testing-library/react'
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
const DISPATCH = { ...DISPATCH_DEFAULTS, dispatch_radii_m: [500, 1000, 2000] }
function api(refuse = false) {
  return mockApi([
    on(agencyApi.tree, () => ({ code: 0, data: { resource: tree } })),
    on(settingsApi.get, () => ({
      code: 0,
      data: { ...DEFAULT_SETTINGS, location_offset: null, agency_id: 1 },
    })),
    on(settingsApi.save, ({ body }) => {
      posted.push(body)
      return refuse
        ? { code: 1, msg: '设置值不正确' }
        : { code: 0, msg: '保存成功', data: { ...DEFAULT_SETTINGS, agency_id: 1 } }
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
        ...DISPATCH,
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

  it('shows the eleven dispatch fields with their defaults and help, and saves them with the rest', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 0, agency_id: 1, permissions: {} }))
    renderWithProviders(<SettingsPage />)
    await screen.findByText('派单')
    const helps: Record<string, RegExp> = {
      首批通知人数: /默认5人/,
      '各阶段范围（米）': /默认500、1000、2000米.*Heartrunner.*1\.3公里/,
      '阶段间隔（秒）': /默认60秒/,
      最多通知人数: /默认30人.*Heartrunner/,
      '应答时限（秒）': /默认45秒.*GoodSAM/,
      足够人数: /默认3人.*FirstAED/,
      '直接前往现场比例（%）': /默认33%.*HartslagNu.*三分之一/,
      '取AED允许绕行（米）': /默认600米/,
      '步行速度（米/秒）': /默认2\.3米\/秒.*Heartrunner/,
      设备急救时无呼救也派单: /默认关闭/,
      救护箱开锁时鸣笛: /默认关闭/,
    }
    for (const [label, help] of Object.entries(helps)) {
      const item = screen.getByText(label).closest('.ant-form-item') as HTMLElement
      expect(within(item).getByText(help)).toBeInTheDocument()
    }
    expect(screen.getByTestId('settings-dispatch-first-wave')).toHaveValue('5')
    expect(screen.getByTestId('settings-dispatch-speed-mps')).toHaveValue('2.3')
    expect(screen.getByTestId('settings-dispatch-radius-2')).toHaveValue('2000')
    expect(screen.getByTestId('settings-dispatch-on-rescue')).not.toBeChecked()

    const user = userEvent.setup()
    const set = async (id: string, value: string) => {
      const input = screen.getByTestId(id)
      await user.clear(input)
      await user.type(input, value)
    }
    await set('settings-dispatch-first-wave', '8')
    await user.click(screen.getByTestId('settings-dispatch-radius-remove-2'))
    await set('settings-dispatch-radius-1', '1300')
    await set('settings-dispatch-max', '25')
    await set('settings-dispatch-answer-s', '30')
    await set('settings-dispatch-enough', '4')
    await set('settings-dispatch-patient-pct', '50')
    await set('settings-dispatch-aed-detour-m', '400')
    await set('settings-dispatch-speed-mps', '1.8')
    await user.click(screen.getByTestId('settings-dispatch-on-rescue'))
    await user.click(screen.getByTestId('settings-dispatch-cabinet-siren'))
    await user.click(screen.getByTestId('settings-save'))
    expect(await screen.findByText('保存成功')).toBeInTheDocument()
    expect(posted).toEqual([
      expect.objectContaining({
        dispatch_first_wave: 8,
        dispatch_radii_m: [500, 1300],
        dispatch_phase_s: 60,
        dispatch_max: 25,
        dispatch_answer_s: 30,
        dispatch_enough: 4,
        dispatch_patient_pct: 50,
        dispatch_aed_detour_m: 400,
        dispatch_speed_mps: 1.8,
        dispatch_on_rescue: 1,
        dispatch_cabinet_siren: 1,
      }),
    ])
  })

  it('refuses phases out of order or range before sending, and shows the server’s refusal', async () => {
    api(true)
    sessionStore.signIn(userInfo({ role_type: 0, agency_id: 1, permissions: {} }))
    renderWithProviders(<SettingsPage />)
    await screen.findByText('派单')
    const user = userEvent.setup()
    const radius = screen.getByTestId('settings-dispatch-radius-1')
    await user.clear(radius)
    await user.type(radius, '400')
    await user.click(screen.getByTestId('settings-save'))
    expect(
      await screen.findByText('请输入1-5个100-10000之间的整数，后一阶段大于前一阶段'),
    ).toBeInTheDocument()
    const enough = screen.getByTestId('settings-dispatch-enough')
    await user.clear(enough)
    expect(await screen.findByText('请输入1-30之间的整数')).toBeInTheDocument()
    expect(posted).toEqual([])

    await user.type(enough, '3')
    await user.clear(radius)
    await user.type(radius, '1000')
    await user.click(screen.getByTestId('settings-dispatch-radius-add'))
    await user.click(screen.getByTestId('settings-dispatch-radius-add'))
    expect(screen.queryByTestId('settings-dispatch-radius-add')).toBeNull()
    expect(screen.getByTestId('settings-dispatch-radius-4')).toHaveValue('3000')
    await user.click(screen.getByTestId('settings-save'))
    expect(await screen.findByText('设置值不正确')).toBeInTheDocument()
    expect(posted).toEqual([expect.objectContaining({ dispatch_radii_m: [500, 1000, 2000, 2500, 3000] })])
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
