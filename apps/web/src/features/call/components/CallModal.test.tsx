import { callApi as calls } from '@aed/contracts/call'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import dayjs from 'dayjs'
import { describe, expect, it, vi } from 'vitest'
import type { LatLon } from '../../../components/MapView/datum'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import CallModal from './CallModal'
import { callRules } from './callRules'

let pickAt: LatLon = { lat: 30.27, lon: 120.15 }
vi.mock('../../../components/MapPicker/MapPicker', () => ({
  MapPicker: ({ onChange }: { onChange?: (p: LatLon) => void }) => (
    <button type="button" data-testid="map-pick" onClick={() => onChange?.(pickAt)}>
      pick
    </button>
  ),
}))

const created: MockCall[] = []
freshConsole({ reset: () => created.splice(0) })

function open() {
  mockApi([
    recordOn(calls.create, created, () => ({ code: 0, msg: '登记成功！', data: { id: 9, created: true } })),
  ])
  const onClose = vi.fn()
  const onCreated = vi.fn()
  renderWithProviders(<CallModal open onClose={onClose} onCreated={onCreated} />)
  return { onClose, onCreated }
}
const ok = () =>
  userEvent.click(within(screen.getByTestId('call-modal')).getByRole('button', { name: /确\s?定/ }))

describe('登记呼救', () => {
  it('says what is missing with the contract’s messages, and sends nothing', async () => {
    open()
    await screen.findByTestId('call-phone')
    await ok()
    expect(await screen.findByText('请输入呼救电话')).toBeInTheDocument()
    expect(screen.getByText('请输入呼救地址')).toBeInTheDocument()
    expect(screen.getByText('请在地图上选择呼救位置')).toBeInTheDocument()
    await userEvent.type(screen.getByTestId('call-phone'), '12345')
    expect(await screen.findByText('请输入正确的呼救电话（手机或带区号的固话）')).toBeInTheDocument()
    pickAt = { lat: 30, lon: 20 }
    await userEvent.click(screen.getByTestId('map-pick'))
    expect(await screen.findByText('呼救位置不在中国境内')).toBeInTheDocument()
    expect(created).toHaveLength(0)
  })

  it('records the call with the picked place and the time, shows the server’s message and hands back the id', async () => {
    const { onCreated, onClose } = open()
    pickAt = { lat: 30.27, lon: 120.15 }
    await userEvent.type(await screen.findByTestId('call-phone'), '139 1234 5678')
    await userEvent.type(
      screen.getByTestId('call-location').querySelector('input') as HTMLElement,
      '文三路20号',
    )
    await userEvent.click(screen.getByTestId('map-pick'))
    await userEvent.type(screen.getByTestId('call-description'), '男子倒地')
    await ok()
    await waitFor(() => expect(created).toHaveLength(1))
    const body = created[0].body as Record<string, unknown>
    expect(body).toMatchObject({
      phone: '13912345678',
      lat: 30.27,
      lon: 120.15,
      location: '文三路20号',
      description: '男子倒地',
    })
    expect(Math.abs(Date.parse(String(body.call_time)) - Date.now())).toBeLessThan(60_000)
    expect(await screen.findByText('登记成功！')).toBeInTheDocument()
    expect(onCreated).toHaveBeenCalledWith(9, { lat: 30.27, lon: 120.15 })
    expect(onClose).toHaveBeenCalled()
  })

  it('refuses a call time in the future', async () => {
    const [rule] = callRules('zh-CN').call_time
    const check = (v: unknown) =>
      typeof rule === 'function' ? Promise.resolve() : rule.validator?.({}, v, () => {})
    const shanghai = (hours: number) =>
      dayjs(dayjs().tz('Asia/Shanghai').add(hours, 'hour').format('YYYY-MM-DD HH:mm:ss'))
    await expect(check(shanghai(1))).rejects.toThrow('呼救时间不能晚于当前时间')
    await expect(check(shanghai(-1))).resolves.toBeUndefined()
  })
})
