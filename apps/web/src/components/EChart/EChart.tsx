import type { ECharts, EChartsCoreOption } from 'echarts/core'
import { useEffect, useRef } from 'react'

/** What a click on a chart tells: the series, the item's name, value and data. */
export type ChartClick = {
  seriesIndex?: number
  name: string
  value: unknown
  data: unknown
  dataIndex: number
}

type Props = {
  option: EChartsCoreOption
  height: number
  onClick?: (e: ChartClick) => void
  testId?: string
}

/** An ECharts chart; the library loads with the first chart a page shows, never on the sign-in page. */
export function EChart({ option, height, onClick, testId }: Props) {
  const el = useRef<HTMLDivElement>(null)
  const chart = useRef<ECharts | null>(null)
  const latest = useRef({ option, onClick })
  latest.current = { option, onClick }

  useEffect(() => {
    let disposed = false
    let observer: ResizeObserver | undefined
    void import('./echartsSetup').then(({ echarts }) => {
      if (disposed || !el.current) return
      const instance = echarts.init(el.current)
      instance.setOption(latest.current.option)
      instance.on('click', (e) => latest.current.onClick?.(e as unknown as ChartClick))
      observer = new ResizeObserver(() => instance.resize())
      observer.observe(el.current)
      chart.current = instance
    })
    return () => {
      disposed = true
      observer?.disconnect()
      chart.current?.dispose()
      chart.current = null
    }
  }, [])

  // Options are rebuilt on every render: redraw only when their content changed.
  const content = JSON.stringify(option)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `content` stands for the option
  useEffect(() => {
    chart.current?.setOption(latest.current.option, true)
  }, [content])

  return <div ref={el} style={{ height, width: '100%' }} data-testid={testId} />
}

/** The top of a value axis: the next multiple of 4 (the spec's axes), at least 4. */
export function axisMax(values: readonly number[]): number {
  const top = Math.max(0, ...values)
  return Math.max(4, Math.ceil(top / 4) * 4)
}
