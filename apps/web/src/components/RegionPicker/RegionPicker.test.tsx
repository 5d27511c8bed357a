import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../i18n'
import { renderWithProviders } from '../../test/renderWithProviders'
import { RegionPicker } from './RegionPicker'
import { endsAtLeaf, matchesRegion, pathOf, type RegionOption } from './regionOptions'

const onChange = vi.fn<(path: string[] | undefined) => void>()
async function option(text: string) {
  const items = await screen.findAllByRole('menuitemcheckbox')
  const hit = items.find((i) => i.textContent === text)
  if (!hit) throw new Error(`no option ${text}: ${items.map((i) => i.textContent).join(', ')}`)
  return hit
}
const input = () => screen.getByTestId('region-picker').querySelector('input') ?? screen.getByRole('combobox')

beforeEach(async () => {
  onChange.mockReset()
  await i18n.changeLanguage('zh-CN')
})

describe('RegionPicker', () => {
  it('shows 请选择地区 and emits the path of a region found by search at any level', async () => {
    renderWithProviders(<RegionPicker onChange={onChange} />)
    expect(screen.getByText('请选择地区')).toBeInTheDocument()
    const user = userEvent.setup()
    await waitFor(() => expect(document.querySelector('.ant-select-loading')).toBeNull(), { timeout: 5000 })
    await user.click(input())
    await user.type(input(), '西湖')
    await user.click(await option('浙江省 / 杭州市 / 西湖区'))
    expect(onChange).toHaveBeenLastCalledWith(['330000', '330100', '330106'])
  })

  it('lets a province alone be chosen', async () => {
    renderWithProviders(<RegionPicker onChange={onChange} />)
    const user = userEvent.setup()
    await waitFor(() => expect(document.querySelector('.ant-select-loading')).toBeNull(), { timeout: 5000 })
    await user.click(input())
    await user.type(input(), '浙江')
    await user.click(await option('浙江省'))
    expect(onChange).toHaveBeenLastCalledWith(['330000'])
  })

  it('expands a single code to its path and can be cleared', async () => {
    renderWithProviders(<RegionPicker value="330106" onChange={onChange} />)
    expect(await screen.findByText('浙江省 / 杭州市 / 西湖区', {}, { timeout: 5000 })).toBeInTheDocument()
    await userEvent.setup().click(document.querySelector('.ant-select-clear')!)
    expect(onChange).toHaveBeenLastCalledWith(undefined)
  })
})

const tree: RegionOption[] = [
  {
    value: '810000',
    label: 'Hong Kong',
    isLeaf: false,
    children: [{ value: '810001', label: 'Central and Western', isLeaf: true }],
  },
  { value: '710000', label: '台湾省', isLeaf: true },
]

describe('region options', () => {
  it('match any label of the path by case-insensitive substring', () => {
    expect(matchesRegion('hong', [tree[0]])).toBe(true)
    expect(matchesRegion('WESTERN', [tree[0], tree[0].children![0]])).toBe(true)
    expect(matchesRegion('macau', [tree[0]])).toBe(false)
  })

  it('find paths and leaves', () => {
    expect(pathOf(tree, '810001')).toEqual(['810000', '810001'])
    expect(pathOf(tree, '999999')).toBeNull()
    expect(endsAtLeaf(tree, ['810000'])).toBe(false)
    expect(endsAtLeaf(tree, ['810000', '810001'])).toBe(true)
    expect(endsAtLeaf(tree, ['710000'])).toBe(true)
  })
})
