import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { freshConsole } from '../../../test/freshConsole'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { MapLegend } from './MapLegend'

freshConsole()

describe('MapLegend', () => {
  it('names the spec’s marker categories in order', async () => {
    renderWithProviders(<MapLegend />)
    const items = (await screen.findByTestId('emergency-legend')).querySelectorAll('li')
    expect([...items].map((li) => li.textContent)).toEqual([
      '正常',
      '预警',
      '故障',
      '位置偏移',
      '离线',
      '急救人员',
      '呼救事件',
      '急救事件',
      '呼救附近正常设备',
    ])
  })
})
