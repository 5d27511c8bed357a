import { ALERT_STATES } from '@aed/contracts/dispatch'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { dispatchAlert, dispatchOf } from '../../../test/callFixtures'
import { freshConsole } from '../../../test/freshConsole'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { CallDispatch } from './CallDispatch'

freshConsole()

const tagOf = (id: number) => within(screen.getByTestId(`call-alert-${id}`)).getByTestId('call-alert-state')

describe('CallDispatch', () => {
  it('says when nobody was dispatched, and when nobody is within reach yet', async () => {
    const { unmount } = renderWithProviders(<CallDispatch dispatch={null} />)
    expect(await screen.findByTestId('call-dispatch')).toHaveTextContent('派单暂未派单')
    unmount()
    renderWithProviders(<CallDispatch dispatch={dispatchOf({ alerts: [] })} />)
    expect(await screen.findByTestId('call-dispatch')).toHaveTextContent('范围内暂无可派遣的急救人员')
  })

  it.each([
    ['running', '派单中', 'processing'],
    ['enough', '人数已足', 'success'],
    ['closed', '已结束', 'default'],
  ] as const)('shows the %s dispatch as %s with its phase, radius and counts', async (state, text, color) => {
    renderWithProviders(
      <CallDispatch dispatch={dispatchOf({ state, phase: 1, radius: 1000, accepted: 2, arrived: 1 })} />,
    )
    const tag = await screen.findByTestId('call-dispatch-state')
    expect(tag).toHaveTextContent(text)
    expect(tag.className).toContain(color === 'default' ? 'ant-tag' : `ant-tag-${color}`)
    expect(screen.getByTestId('call-dispatch-phase')).toHaveTextContent('第2阶段 · 范围1000米')
    expect(screen.getByTestId('call-dispatch-counts')).toHaveTextContent('已通知1人 · 已接受2人 · 已到达1人')
  })

  it('lists every alert with its state tag, those coming first and those not coming folded', async () => {
    const texts = {
      alerted: ['已通知', 'processing'],
      accepted: ['已接受', 'success'],
      declined: ['已拒绝', 'error'],
      expired: ['超时未应答', 'warning'],
      arrived: ['已到达', 'cyan'],
      stood_down: ['无需前往', 'default'],
    } as const
    const alerts = ALERT_STATES.map((state, i) =>
      dispatchAlert({ id: i + 1, responder_id: 60 + i, name: `人员${i + 1}`, state }),
    )
    renderWithProviders(<CallDispatch dispatch={dispatchOf({ alerts })} />)
    await screen.findByTestId('call-dispatch-alerts')
    const items = () =>
      [...screen.getByTestId('call-dispatch-alerts').querySelectorAll('li')].map((li) =>
        li.getAttribute('data-testid'),
      )
    // Those not coming are folded: arrived, accepted, alerted.
    expect(items()).toEqual([5, 2, 1].map((id) => `call-alert-${id}`))
    const fold = screen.getByTestId('call-dispatch-fold')
    expect(fold).toHaveTextContent('另有3人未前往（拒绝、超时或无需前往），展开')
    await userEvent.click(fold)
    expect(fold).toHaveTextContent('收起未前往的3人')
    for (const [i, state] of ALERT_STATES.entries()) {
      const tag = tagOf(i + 1)
      expect(tag).toHaveTextContent(texts[state][0])
      if (state !== 'stood_down') expect(tag.className).toContain(`ant-tag-${texts[state][1]}`)
    }
    // arrived, accepted, alerted, expired, declined, stood down
    expect(items()).toEqual([5, 2, 1, 4, 3, 6].map((id) => `call-alert-${id}`))
  })

  it('shows the masked phone, 去现场 or 取AED with the device and cabinet, distance, minutes and times', async () => {
    const alerts = [
      dispatchAlert({ id: 1 }),
      dispatchAlert({
        id: 2,
        responder_id: 62,
        name: '王护士',
        phone: '139****0062',
        role: 'aed',
        device_sn: 'A640000051',
        cabinet_sn: 'C510',
        state: 'arrived',
        distance: 740,
        eta_s: 322,
        answered_at: '2026-03-10 09:30:40',
        arrived_at: '2026-03-10 09:36:12',
      }),
    ]
    renderWithProviders(<CallDispatch dispatch={dispatchOf({ alerts })} />)
    const first = await screen.findByTestId('call-alert-1')
    expect(first).toHaveTextContent('李医生138****0061已通知')
    expect(within(first).getByTestId('call-alert-way')).toHaveTextContent('去现场 · 260米 · 约2分钟')
    expect(first).toHaveTextContent('通知 09:30:05')
    const second = screen.getByTestId('call-alert-2')
    expect(second).toHaveTextContent('王护士139****0062已到达')
    expect(within(second).getByTestId('call-alert-way')).toHaveTextContent(
      '取AED · A640000051 · 救护箱C510 · 740米 · 约5分钟',
    )
    expect(second).toHaveTextContent('通知 09:30:05 · 应答 09:30:40 · 到达 09:36:12')
  })

  it('folds nobody when nobody is on the way (a closed dispatch stood everyone down), those who had said yes first', async () => {
    const alerts = [
      dispatchAlert({ id: 1, responder_id: 62, state: 'expired' }),
      dispatchAlert({ id: 2, state: 'stood_down' }),
      dispatchAlert({
        id: 3,
        state: 'stood_down',
        answered_at: '2026-03-10 09:30:40',
        arrived_at: '2026-03-10 09:33:00',
      }),
    ]
    renderWithProviders(<CallDispatch dispatch={dispatchOf({ state: 'closed', alerts })} />)
    expect(await screen.findByTestId('call-alert-3')).toHaveTextContent('无需前往')
    expect(screen.getByTestId('call-alert-3')).toHaveTextContent('应答 09:30:40 · 到达 09:33:00')
    expect(screen.getByTestId('call-alert-1')).toHaveTextContent('超时未应答')
    expect(screen.queryByTestId('call-dispatch-fold')).toBeNull()
    // Those who had answered yes before the close come first.
    const items = [...screen.getByTestId('call-dispatch-alerts').querySelectorAll('li')]
    expect(items.map((li) => li.getAttribute('data-testid'))).toEqual([
      'call-alert-3',
      'call-alert-1',
      'call-alert-2',
    ])
  })
})
