import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { device } from '../../../test/deviceFixtures'
import { freshConsole } from '../../../test/freshConsole'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { ReadinessTag } from './ReadinessTag'

freshConsole()

describe('the readiness tag', () => {
  it('shows a device that is not ready in red, with its reasons and last passed self-test on hover', async () => {
    const notReady = device({
      readiness: 'not_ready',
      readiness_text: '不可用',
      readiness_reasons: ['fault', 'pads_expired'],
      readiness_reasons_text: ['自检故障', '电极片已过期'],
      last_pass_time: '2026-11-20 08:00:00',
    })
    renderWithProviders(<ReadinessTag device={notReady} />)
    const tag = await screen.findByTestId('readiness-not_ready')
    expect(tag).toHaveTextContent('不可用')
    expect(tag).toHaveClass('ant-tag-red')

    await userEvent.setup().hover(tag)
    const tip = await screen.findByTestId('readiness-tip')
    expect(within(tip).getByText('原因：自检故障、电极片已过期')).toBeInTheDocument()
    expect(within(tip).getByText('最近自检通过：2026-11-20 08:00:00')).toBeInTheDocument()
  })

  it('shows a ready device in green, and names no reason', async () => {
    renderWithProviders(<ReadinessTag device={device()} />)
    const tag = await screen.findByTestId('readiness-ready')
    expect(tag).toHaveTextContent('可用')
    expect(tag).toHaveClass('ant-tag-green')
    await userEvent.setup().hover(tag)
    const tip = await screen.findByTestId('readiness-tip')
    expect(tip).toHaveTextContent('最近自检通过：2026-11-22 09:12:00')
    expect(tip).not.toHaveTextContent('原因')
  })

  it('shows an unknown readiness in grey, and says so when no self-test ever passed', async () => {
    const unknown = device({
      readiness: 'unknown',
      readiness_text: '未知',
      readiness_reasons: ['never_reported'],
      readiness_reasons_text: ['从未上报'],
      last_pass_time: null,
      last_report_time: null,
    })
    renderWithProviders(<ReadinessTag device={unknown} />)
    const tag = await screen.findByTestId('readiness-unknown')
    expect(tag).toHaveTextContent('未知')
    expect(tag).not.toHaveClass('ant-tag-green')
    expect(tag).not.toHaveClass('ant-tag-red')
    await userEvent.setup().hover(tag)
    const tip = await screen.findByTestId('readiness-tip')
    expect(tip).toHaveTextContent('原因：从未上报')
    expect(tip).toHaveTextContent('最近自检通过：无')
  })
})
