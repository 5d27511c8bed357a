import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../i18n'
import { renderWithProviders } from '../../test/renderWithProviders'
import type { Filters } from '../DataTable/listParams'
import { FilterForm } from './FilterForm'
import type { FilterField } from './types'

const onSearch = vi.fn<(f: Filters) => void>()
const onReset = vi.fn()
const input = (name: string, title = name): FilterField => ({ name, title, type: 'input', maxLength: 50 })
const role: FilterField = {
  name: 'role',
  title: '角色',
  type: 'select',
  options: [
    { label: '超级管理员', value: 0 },
    { label: '管理员', value: 1 },
  ],
}
const time: FilterField = {
  name: 'time',
  title: '时间',
  type: 'custom_time_select',
  presets: [{ key: '1', label: '近7天' }],
}
const range: FilterField = { name: 'start', title: '日期', type: 'date_range', hasExtraName: 'end' }

function show(fields: FilterField[], values: Filters = {}, extra?: FilterField[], span?: number) {
  return renderWithProviders(
    <FilterForm
      fields={fields}
      extraFields={extra}
      values={values}
      onSearch={onSearch}
      onReset={onReset}
      span={span}
    />,
  )
}
const field = (name: string) => screen.queryByTestId(`filter-${name}`)

beforeEach(async () => {
  onSearch.mockReset()
  onReset.mockReset()
  await i18n.changeLanguage('zh-CN')
})

describe('FilterForm', () => {
  it('has 搜索 and 重置 and no arrow while the fields fit one row', () => {
    show([input('a'), input('b'), input('c'), input('d')])
    expect(screen.getByTestId('filter-search')).toHaveTextContent(/搜\s?索/)
    expect(screen.getByTestId('filter-reset')).toHaveTextContent(/重\s?置/)
    expect(screen.queryByTestId('filter-toggle')).toBeNull()
  })

  it('collapses fields past one row (24 / span) and shows them and the extra filters when expanded', async () => {
    const extra: FilterField = { name: 'x', type: 'select_multi', options: [{ label: '甲', value: 'a' }] }
    show([input('a'), input('b'), input('c'), input('d'), input('e')], {}, [extra])
    expect(field('d')).not.toBeNull()
    expect(field('e')).toBeNull()
    expect(field('x')).toBeNull()
    await userEvent.setup().click(screen.getByTestId('filter-toggle'))
    expect(field('e')).not.toBeNull()
    expect(field('x')).not.toBeNull()
    expect(screen.getByTestId('filter-toggle')).toHaveTextContent('收起')
  })

  it('counts the row by the span', () => {
    show([input('a'), input('b'), input('c'), input('d')], {}, undefined, 8)
    expect(screen.getByTestId('filter-toggle')).toBeInTheDocument()
    expect(field('d')).toBeNull()
  })

  it('searches on Enter, dropping empty values and keeping zero', async () => {
    show([input('name'), role, input('phone')], { role: '0' })
    await waitFor(() => expect(screen.getByText('超级管理员')).toBeInTheDocument())
    await userEvent.setup().type(field('name')!, '王{Enter}')
    await waitFor(() => expect(onSearch).toHaveBeenCalledWith({ name: '王', role: '0' }))
  })

  it('runs the field rules first: a name over 50 characters does not search', async () => {
    show([input('name')])
    const user = userEvent.setup()
    await user.click(field('name')!)
    await user.paste('x'.repeat(51))
    await user.click(screen.getByTestId('filter-search'))
    expect(await screen.findByText('字符长度不超过50')).toBeInTheDocument()
    expect(onSearch).not.toHaveBeenCalled()
  })

  it('emits a range under its two names', async () => {
    show([range], { start: '2026-01-01', end: '2026-01-31' })
    await waitFor(() => expect(screen.getByDisplayValue('2026-01-31')).toBeInTheDocument())
    await userEvent.setup().click(screen.getByTestId('filter-search'))
    expect(onSearch).toHaveBeenCalledWith({ start: '2026-01-01', end: '2026-01-31' })
  })

  it('reset clears fields, ranges and the custom time label, then calls refresh', async () => {
    show([input('name'), range, time], { name: '王', start: '2026-01-01', end: '2026-01-31' })
    const user = userEvent.setup()
    await waitFor(() => expect(screen.getByDisplayValue('王')).toBeInTheDocument())
    await user.click(screen.getByTestId('time-range-trigger'))
    await user.click(await screen.findByTestId('time-range-option-1'))
    expect(screen.getByTestId('time-range-trigger')).toHaveTextContent('近7天')
    await user.click(screen.getByTestId('filter-reset'))
    expect(onReset).toHaveBeenCalledOnce()
    expect(screen.queryByDisplayValue('王')).toBeNull()
    expect(screen.queryByDisplayValue('2026-01-01')).toBeNull()
    expect(screen.getByTestId('time-range-trigger')).not.toHaveTextContent('近7天')
    await user.click(screen.getByTestId('filter-search'))
    expect(onSearch).toHaveBeenLastCalledWith({})
  })

  it('opens expanded when a field of the second row has a value in the URL', () => {
    show([input('a'), input('b'), input('c'), input('d'), input('e')], { e: '1' })
    expect(field('e')).not.toBeNull()
  })
})
