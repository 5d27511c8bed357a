import type { MenuItem } from '@aed/contracts/menu'
import { type Responder, responderApi } from '@aed/contracts/responder'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { HIGHLIGHT_DELAY_MS } from '../../../components/DataTable/useActiveRow'
import { orgMenu } from '../../../test/adminFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { pageRoutes } from '../../../test/pageRoutes'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { responder, responderChange, responderDetail } from '../../../test/responderFixtures'
import { RespondersPage } from './RespondersPage'

vi.mock('../components/ResponderMap', () => ({
  ResponderMap: ({ title }: { title?: string }) => <div data-testid="responder-map">{title}</div>,
}))

const calls: MockCall[] = []
const second = responder({
  id: 2,
  name: '李四',
  aid_aptitude: 0,
  certificate_status: null,
  can: { edit: true, delete: false },
})

function api(rows: Responder[] = [responder(), second], can = { create: true }, menu: MenuItem[] = orgMenu) {
  return mockApi([
    ...pageRoutes(menu),
    recordOn(responderApi.list, calls, ({ query }) =>
      query.get('export_xls') === 'true'
        ? { code: 0, data: { file_base64: btoa('PK-xlsx'), count: rows.length } }
        : { code: 0, data: { count: rows.length, resource: rows, can } },
    ),
    on(responderApi.detail, ({ params }) => ({
      code: 0,
      data: responderDetail(rows.find((r) => r.id === Number(params.id))),
    })),
    on(responderApi.changes, () => ({
      code: 0,
      data: {
        count: 2,
        resource: [responderChange({ id: 2, kind: 'paused', operator: null }), responderChange()],
      },
    })),
    on(responderApi.remove, () => ({
      code: 0,
      msg: '删除成功！',
      data: { id: 1, name: '张三', agency_name: '' },
    })),
  ])
}

const DETAIL_ROWS = [
  '姓名',
  '性别',
  '年龄',
  '出生日期',
  '电话',
  '邮箱',
  '常驻地址',
  '急救资质',
  '证书编号',
  '证书有效期',
  '证书状态',
  '负责区域',
  '是否绑定机构设备',
  '创建人',
  '创建时间',
  '更新人',
  '更新时间',
]

freshConsole({ reset: () => calls.splice(0), signedIn: userInfo({ permissions: { aid_man: 'ALL' } }) })

describe('RespondersPage', () => {
  it('selects the first row after loading and shows its 人员详情 rows in order, with history', async () => {
    api()
    renderWithProviders(<RespondersPage />)
    await waitFor(() => expect(screen.getByTestId('row-1')).toHaveClass('data-table-row-active'))
    const detail = await screen.findByTestId('responder-detail')
    const labels = [...detail.querySelectorAll('.ant-descriptions-item-label')].map((l) => l.textContent)
    expect(labels).toEqual(DETAIL_ROWS)
    // The detail is fetched: the phone and email are whole there, masked in the list.
    expect(within(detail).getByText('13912345678')).toBeInTheDocument()
    expect(within(screen.getByTestId('row-1')).getByText('139****5678')).toBeInTheDocument()
    expect(await within(detail).findByText('浙江省杭州市西湖区')).toBeInTheDocument()
    expect(within(detail).getByTestId('responder-certificate-view')).toBeInTheDocument()
    const history = await screen.findByTestId('responder-history')
    expect(within(history).getByText('暂停派单')).toBeInTheDocument()
    expect(within(history).getByText(/^系统/)).toBeInTheDocument()
    expect(screen.getByTestId('responder-map')).toHaveTextContent('张三')

    await userEvent.setup().click(screen.getByTestId('row-2'))
    expect(screen.getByTestId('row-2')).toHaveClass('data-table-row-active')
    await waitFor(() => expect(screen.getByTestId('responder-map')).toHaveTextContent('李四'))
    // A non-professional's certificate status is a dash.
    const row = within(await screen.findByTestId('responder-detail'))
    await waitFor(() => expect(row.getByText('非专业')).toBeInTheDocument())
  })

  it('hides 登记, import and the row actions from read-only members; export stays', async () => {
    const readOnly = { edit: false, delete: false }
    api([responder({ can: readOnly }), responder({ id: 2, can: readOnly })], { create: false })
    renderWithProviders(<RespondersPage />)
    await screen.findByTestId('row-1')
    expect(screen.queryByTestId('responder-add')).toBeNull()
    expect(screen.queryByTestId('responder-import-button')).toBeNull()
    expect(screen.queryByTestId('responder-edit-1')).toBeNull()
    expect(screen.queryByTestId('responder-pause-1')).toBeNull()
    expect(screen.queryByTestId('responder-renew-1')).toBeNull()
    expect(screen.getByTestId('responder-export')).toBeInTheDocument()
  })

  it('offers delete only with the row’s can.delete, and renew only to professionals', async () => {
    api()
    renderWithProviders(<RespondersPage />)
    await screen.findByTestId('row-1')
    expect(screen.getByTestId('responder-add')).toBeInTheDocument()
    expect(screen.getByTestId('responder-import-button')).toBeInTheDocument()
    expect(screen.getByTestId('responder-edit-2')).toBeInTheDocument()
    expect(screen.queryByTestId('responder-delete-2')).toBeNull()
    expect(screen.getByTestId('responder-renew-1')).toBeInTheDocument()
    expect(screen.queryByTestId('responder-renew-2')).toBeNull()
    const user = userEvent.setup()
    await user.click(screen.getByTestId('responder-delete-1'))
    expect(await screen.findByText('是否删除急救人员张三')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('删除成功！')).toBeInTheDocument()
  })

  it('shows the dispatch state: paused with its reason, an expired certificate in red', async () => {
    api([
      responder({ paused: true, pause_reason: '外出培训', dispatch_state: 'paused' }),
      responder({ id: 2, certificate_status: 0, dispatch_state: 'certificate_expired' }),
    ])
    renderWithProviders(<RespondersPage />)
    expect(await screen.findByTestId('dispatch-1')).toHaveTextContent('已暂停')
    expect(screen.getByTestId('dispatch-2')).toHaveTextContent('证书过期')
    expect(within(screen.getByTestId('row-2')).getByText('已过期')).toHaveClass('ant-typography-danger')
    expect(screen.getByTestId('responder-resume-1')).toBeInTheDocument()
    expect(await screen.findByTestId('responder-reason')).toHaveTextContent('已暂停派单：外出培训')
  })

  it('tags an approved public volunteer beside the name', async () => {
    api([responder({ volunteer: true }), second])
    renderWithProviders(<RespondersPage />)
    expect(await screen.findByTestId('responder-volunteer-1')).toHaveTextContent('公共志愿者')
    expect(screen.queryByTestId('responder-volunteer-2')).toBeNull()
  })

  it('hides the detail and the map when there are no rows', async () => {
    api([])
    renderWithProviders(<RespondersPage />)
    await waitFor(() => expect(document.querySelector('.ant-table-placeholder')).not.toBeNull())
    // Past the first-row highlight's delay, when a row would have been selected.
    await new Promise((r) => setTimeout(r, HIGHLIGHT_DELAY_MS * 2))
    expect(screen.queryByTestId('responder-map')).toBeNull()
    expect(screen.queryByTestId('responder-detail')).toBeNull()
  })

  it('filters by organisation only when the menu has the organisation list', async () => {
    api(undefined, undefined, [orgMenu[1]])
    renderWithProviders(<RespondersPage />)
    await screen.findByTestId('row-1')
    expect(screen.getByTestId('filter-dispatch_state')).toBeInTheDocument()
    expect(screen.queryByTestId('filter-agency_id')).toBeNull()
  })

  it('exports with export_xls=true and saves the decoded 急救人员列表.xlsx', async () => {
    api()
    const blobs: Blob[] = []
    // jsdom has no object URLs: this one keeps the saved file's bytes (unstubbed after the test).
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL(b: Blob) {
          blobs.push(b)
          return 'blob:x'
        }
        static override revokeObjectURL() {}
      },
    )
    const saved: string[] = []
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download)
    })
    renderWithProviders(<RespondersPage />, '/?aid_aptitude=1')
    await screen.findByTestId('row-1')
    await userEvent.setup().click(screen.getByTestId('responder-export'))
    await waitFor(() => expect(saved).toEqual(['急救人员列表.xlsx']))
    const asked = calls.find((c) => c.query.get('export_xls') === 'true')
    expect(asked?.query.get('aid_aptitude')).toBe('1')
    expect(asked?.query.has('page_size')).toBe(false)
    expect(await blobs[0].text()).toBe('PK-xlsx')
    click.mockRestore()
  })
})
