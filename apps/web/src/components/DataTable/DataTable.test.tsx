import type { Paged } from '@aed/contracts'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../i18n'
import { renderWithProviders } from '../../test/renderWithProviders'
import { DataTable } from './DataTable'
import type { Filters, ListParams } from './listParams'
import { useListQuery } from './useListQuery'
import { useListState } from './useListState'

type Row = { id: number; name: string }
const rows = (n: number, from = 1): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, name: `机构${from + i}` }))

let fetchList: ReturnType<typeof vi.fn<(p: ListParams) => Promise<Paged<Row>>>>

function Harness({
  next = {},
  pagination,
  fillHeight,
}: {
  next?: Filters
  pagination?: boolean
  fillHeight?: boolean
}) {
  const list = useListState()
  const query = useListQuery(
    list,
    (p) => ['test', 'list', p],
    (p) => fetchList(p),
  )
  return (
    <>
      <button type="button" onClick={() => list.search(next)}>
        do-search
      </button>
      <button type="button" onClick={list.refresh}>
        do-refresh
      </button>
      <button type="button" onClick={list.clear}>
        do-clear
      </button>
      <DataTable<Row>
        list={list}
        columns={[{ title: '名称', dataIndex: 'name', sorter: true }]}
        rowKey={(r) => r.id}
        query={query}
        pagination={pagination}
        fillHeight={fillHeight}
      />
    </>
  )
}

const lastParams = () => fetchList.mock.calls.at(-1)![0]

beforeEach(async () => {
  await i18n.changeLanguage('zh-CN')
  fetchList = vi.fn(async (p: ListParams) => ({
    count: 35,
    resource: rows(p.page_size > 3 ? 3 : p.page_size, (p.page - 1) * 10 + 1),
  }))
})
afterEach(() => vi.restoreAllMocks())

describe('DataTable', () => {
  it('asks for page 1 of 10 and shows the total as 共 N 条 with page sizes 10 to 100', async () => {
    renderWithProviders(<Harness />)
    expect(await screen.findByText('共 35 条')).toBeInTheDocument()
    expect(lastParams()).toMatchObject({ page: 1, page_size: 10, filters: {} })
    await userEvent.setup().click(document.querySelector('.ant-pagination-options .ant-select')!)
    const options = await screen.findAllByRole('option')
    expect(options.map((o) => o.textContent)).toEqual(
      ['10', '20', '30', '50', '100'].map((n) => expect.stringContaining(n)),
    )
  })

  it('hides the pagination when the total is zero or paging is off', async () => {
    // The total decides, not the rows: a zero count shows no pagination even beside rows.
    fetchList.mockResolvedValue({ count: 0, resource: rows(3) })
    const first = renderWithProviders(<Harness />)
    await screen.findByText('机构1')
    expect(document.querySelector('.ant-pagination')).toBeNull()
    first.unmount()
    fetchList.mockResolvedValue({ count: 35, resource: rows(3) })
    renderWithProviders(<Harness pagination={false} />)
    await screen.findByText('机构1')
    expect(document.querySelector('.ant-pagination')).toBeNull()
  })

  it('highlights the first row after the load', async () => {
    renderWithProviders(<Harness />)
    await waitFor(() => expect(screen.getByTestId('row-1')).toHaveClass('data-table-row-active'))
    expect(screen.getByTestId('row-2')).not.toHaveClass('data-table-row-active')
  })

  it('marks a clicked row active and stops the automatic highlight until the next search', async () => {
    const { router } = renderWithProviders(<Harness />)
    await waitFor(() => expect(screen.getByTestId('row-1')).toHaveClass('data-table-row-active'))
    const user = userEvent.setup()
    await user.click(screen.getByText('机构2'))
    expect(screen.getByTestId('row-2')).toHaveClass('data-table-row-active')
    expect(screen.getByTestId('row-1')).not.toHaveClass('data-table-row-active')
    await act(() => router.navigate('/?page=2'))
    await screen.findByText('机构11')
    await new Promise((r) => setTimeout(r, 120))
    expect(screen.getByTestId('row-11')).not.toHaveClass('data-table-row-active')
    await user.click(screen.getByText('do-search'))
    await waitFor(() => expect(screen.getByTestId('row-1')).toHaveClass('data-table-row-active'))
  })

  it('keeps page, size and sort in the URL', async () => {
    const { router } = renderWithProviders(<Harness />, '/?page=2&page_size=20&name=x')
    await screen.findByText('机构11')
    expect(lastParams()).toMatchObject({ page: 2, page_size: 20, filters: { name: 'x' } })
    const user = userEvent.setup()
    await user.click(within(document.querySelector('.ant-pagination')!).getByTitle('1'))
    await waitFor(() => expect(router.state.location.search).toBe('?name=x&page_size=20'))
    await user.click(document.querySelector('th.ant-table-column-has-sorters')!)
    await waitFor(() => expect(router.state.location.search).toBe('?name=x&page_size=20&order_by=name'))
    expect(lastParams()).toMatchObject({ page: 1, order_by: 'name' })
  })

  it('search goes to page 1 and replaces the filters', async () => {
    const { router } = renderWithProviders(<Harness next={{ phone: '138' }} />, '/?page=3&name=x&role=1')
    await screen.findByText('机构21')
    await userEvent.setup().click(screen.getByText('do-search'))
    await waitFor(() => expect(router.state.location.search).toBe('?phone=138'))
    expect(lastParams()).toMatchObject({ page: 1, filters: { phone: '138' } })
  })

  it('refresh clears the filters and goes to page 1', async () => {
    const { router } = renderWithProviders(<Harness />, '/?page=3&name=x')
    await screen.findByText('机构21')
    await userEvent.setup().click(screen.getByText('do-refresh'))
    await waitFor(() => expect(router.state.location.search).toBe(''))
    expect(lastParams()).toMatchObject({ page: 1, filters: {} })
  })

  it('clear empties the rows, the total and the page', async () => {
    const { router } = renderWithProviders(<Harness />, '/?page=2')
    await screen.findByText('机构11')
    await userEvent.setup().click(screen.getByText('do-clear'))
    await waitFor(() => expect(screen.queryByText('机构11')).toBeNull())
    expect(screen.queryByText(/共 \d+ 条/)).toBeNull()
    expect(router.state.location.search).toBe('')
  })

  it('fits the body into its container 500 ms after mount, leaving 48 px for the pagination', async () => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('data-table') ? 503 : 0
    })
    renderWithProviders(<Harness fillHeight />)
    await screen.findByText('机构1')
    expect(document.querySelector<HTMLElement>('.ant-table-body')).toBeNull()
    await waitFor(
      () => expect(document.querySelector<HTMLElement>('.ant-table-body')?.style.maxHeight).toBe('400px'),
      {
        timeout: 2000,
      },
    )
  })
})
