import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import dayjs from 'dayjs'
import { useState } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../i18n'
import { renderWithProviders } from '../../test/renderWithProviders'
import { TimeRangePicker } from './TimeRangePicker'
import { outsideCustomRange, type TimeRangeValue, timeRangeLabel } from './timeRange'

const presets = [
  { key: '1', label: '近7天' },
  { key: '4', label: '近180天' },
]
const onChange = vi.fn<(v: TimeRangeValue, label: string) => void>()

function Harness() {
  const [value, setValue] = useState<TimeRangeValue | undefined>()
  return (
    <>
      <p>outside</p>
      <TimeRangePicker
        presets={presets}
        value={value}
        onChange={(v, l) => {
          setValue(v)
          onChange(v, l)
        }}
      />
    </>
  )
}

const popupOpen = () => screen.getByTestId('time-range-trigger').classList.contains('ant-dropdown-open')

async function typeDate(testId: string, text: string) {
  const user = userEvent.setup()
  const input = screen.getByTestId(testId).querySelector('input') ?? screen.getByTestId(testId)
  await user.click(input)
  await user.clear(input)
  await user.type(input, `${text}{Enter}`)
}

beforeEach(async () => {
  onChange.mockReset()
  await i18n.changeLanguage('zh-CN')
})

describe('TimeRangePicker', () => {
  it('emits a preset key with its label and closes', async () => {
    renderWithProviders(<Harness />)
    const user = userEvent.setup()
    await user.click(screen.getByTestId('time-range-trigger'))
    await user.click(await screen.findByTestId('time-range-option-4'))
    expect(onChange).toHaveBeenCalledWith('4', '近180天')
    await waitFor(() => expect(popupOpen()).toBeFalsy())
    expect(screen.getByTestId('time-range-trigger')).toHaveTextContent('近180天')
  })

  it('custom (key 5) shows 开始时间, 结束时间 and 确定; start after end is refused and it stays open', async () => {
    renderWithProviders(<Harness />)
    const user = userEvent.setup()
    await user.click(screen.getByTestId('time-range-trigger'))
    await user.click(await screen.findByTestId('time-range-option-5'))
    const panel = await screen.findByTestId('time-range-custom')
    expect(panel).toHaveTextContent('开始时间')
    expect(panel).toHaveTextContent('结束时间')
    await typeDate('time-range-start', dayjs().format('YYYY.MM.DD'))
    await typeDate('time-range-end', dayjs().subtract(3, 'day').format('YYYY.MM.DD'))
    await user.click(screen.getByTestId('time-range-confirm'))
    await waitFor(() =>
      expect(screen.getByTestId('time-range-custom')).toHaveTextContent('开始时间不能大于结束时间！'),
    )
    expect(onChange).not.toHaveBeenCalled()
    expect(popupOpen()).toBeTruthy()
  })

  it('custom emits a pair of dotted dates and the label start - end', async () => {
    renderWithProviders(<Harness />)
    const user = userEvent.setup()
    await user.click(screen.getByTestId('time-range-trigger'))
    await user.click(await screen.findByTestId('time-range-option-5'))
    const a = dayjs().subtract(10, 'day').format('YYYY.MM.DD')
    const b = dayjs().format('YYYY.MM.DD')
    await typeDate('time-range-start', a)
    await typeDate('time-range-end', b)
    await user.click(screen.getByTestId('time-range-confirm'))
    expect(onChange).toHaveBeenCalledWith([a, b], `${a} - ${b}`)
    await waitFor(() => expect(popupOpen()).toBeFalsy())
    expect(screen.getByTestId('time-range-trigger')).toHaveTextContent(`${a} - ${b}`)
  })

  it('closes on an outside click, unless the custom range is open', async () => {
    renderWithProviders(<Harness />)
    const user = userEvent.setup()
    await user.click(screen.getByTestId('time-range-trigger'))
    await screen.findByTestId('time-range-option-1')
    await user.click(screen.getByText('outside'))
    await waitFor(() => expect(popupOpen()).toBeFalsy())
    await user.click(screen.getByTestId('time-range-trigger'))
    await user.click(await screen.findByTestId('time-range-option-5'))
    await screen.findByTestId('time-range-custom')
    await user.click(screen.getByText('outside'))
    await new Promise((r) => setTimeout(r, 300))
    expect(popupOpen()).toBeTruthy()
  })
})

describe('time range rules', () => {
  it('allows dates from 5 years before to 5 years after today', () => {
    const today = dayjs('2026-06-15')
    expect(outsideCustomRange(dayjs('2021-06-15'), today)).toBe(false)
    expect(outsideCustomRange(dayjs('2021-06-14'), today)).toBe(true)
    expect(outsideCustomRange(dayjs('2031-06-15'), today)).toBe(false)
    expect(outsideCustomRange(dayjs('2031-06-16'), today)).toBe(true)
  })

  it('labels presets by their label and pairs as start - end', () => {
    expect(timeRangeLabel('1', presets)).toBe('近7天')
    expect(timeRangeLabel(['2026.01.01', '2026.02.01'], presets)).toBe('2026.01.01 - 2026.02.01')
    expect(timeRangeLabel(undefined, presets)).toBe('')
  })
})
