import { reviewApi, type Volunteer } from '@aed/contracts/review'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { callsOfTab, duplicate, readOnly, reviewListAnswer, volunteer } from '../../../test/reviewFixtures'
import { VolunteersPage } from './VolunteersPage'

vi.mock('../components/DuplicateMap', () => ({
  DuplicateMap: () => <div data-testid="review-compare-map" />,
}))

const lists: MockCall[] = []
const audits: MockCall[] = []
const deletes: MockCall[] = []

function api(
  rows: Volunteer[] = [
    volunteer(),
    volunteer({ id: 2, submitter_name: '赵六', has_cert: 0, cert_img: null }),
  ],
  can = { audit: true, export: true },
) {
  return mockApi([
    recordOn(reviewApi.volunteers, lists, reviewListAnswer(rows, can)),
    recordOn(reviewApi.auditVolunteer, audits, ({ params }) => ({
      code: 0,
      msg: '',
      data: volunteer({ id: Number(params.id) }),
    })),
    recordOn(reviewApi.deleteVolunteer, deletes, ({ params }) => ({
      code: 0,
      msg: '删除成功！',
      data: { id: Number(params.id), name: '王小明' },
    })),
  ])
}

freshConsole({
  reset: () => {
    lists.length = 0
    audits.length = 0
    deletes.length = 0
  },
  signedIn: userInfo({ agency_type: 0, permissions: { agency: 'ALL' } }),
})

const tabOf = (status: number) => callsOfTab(lists, status)

describe('VolunteersPage', () => {
  it('opens on 审核中 with the submit time; the other tabs show the audit time, the remark only when rejected', async () => {
    api()
    renderWithProviders(<VolunteersPage />)
    await screen.findByTestId('row-1')
    expect(tabOf(1)).toHaveLength(1)
    expect(screen.getByRole('tab', { selected: true })).toHaveTextContent('审核中')
    const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent)
    expect(headers()).toEqual(
      expect.arrayContaining(['姓名', '守护区域', '手机号', '是否有证书', '证书图片', '提交时间']),
    )
    expect(headers()).not.toContain('备注')
    expect(within(screen.getByTestId('row-1')).getByText('139****5678')).toBeInTheDocument()
    expect(within(screen.getByTestId('row-2')).getByText('否')).toBeInTheDocument()
    expect(screen.getByTestId('review-cert-1').querySelector('img')).toHaveAttribute(
      'src',
      '/files/cert-1.png',
    )
    // No export in review.
    expect(screen.queryByTestId('review-export')).toBeNull()

    const user = userEvent.setup()
    await user.click(screen.getByTestId('review-tab-0'))
    await waitFor(() => expect(tabOf(0)).toHaveLength(1))
    await waitFor(() => expect(headers()).toContain('备注'))
    expect(headers()).toContain('审核时间')
    expect(headers()).not.toContain('提交时间')
    expect(screen.queryByTestId('review-pass-1')).toBeNull()
    expect(screen.queryByTestId('review-export')).toBeNull()

    await user.click(screen.getByTestId('review-tab-2'))
    await waitFor(() => expect(tabOf(2)).toHaveLength(1))
    await waitFor(() => expect(headers()).not.toContain('备注'))
    expect(screen.getByTestId('review-delete-1')).toBeInTheDocument()
  })

  it('filters by name (at most 50) and certificate', async () => {
    api()
    renderWithProviders(<VolunteersPage />, '/?has_cert=0')
    await screen.findByTestId('row-1')
    expect(lists[0].query.get('has_cert')).toBe('0')
    const user = userEvent.setup()
    await user.type(
      screen.getByTestId('filter-name').querySelector('input') ?? screen.getByTestId('filter-name'),
      'x'.repeat(51),
    )
    await user.click(screen.getByRole('button', { name: /搜\s?索/ }))
    expect(await screen.findByText('字符长度不超过50')).toBeInTheDocument()
  })

  it('passes with 审核通过！ after asking', async () => {
    api()
    renderWithProviders(<VolunteersPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('review-pass-1'))
    expect(await screen.findByText('确定通过王小明的审核？')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('审核通过！')).toBeInTheDocument()
    expect(audits[0].params.id).toBe('1')
    expect(audits[0].body).toEqual({ audit_status: 2 })
  })

  it('rejects only with a reason, then says 提交成功！', async () => {
    api()
    renderWithProviders(<VolunteersPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('review-reject-2'))
    const dialog = await screen.findByTestId('review-reject-modal')
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await within(dialog).findByText('请输入驳回原因')).toBeInTheDocument()
    expect(audits).toHaveLength(0)
    await user.type(within(dialog).getByTestId('review-reject-reason'), '证书模糊')
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('提交成功！')).toBeInTheDocument()
    expect(audits[0].params.id).toBe('2')
    expect(audits[0].body).toEqual({ audit_status: 0, rejected_reason: '证书模糊' })
  })

  it('shows no pass, reject or delete to a read-only member', async () => {
    api([volunteer({ can: readOnly })], { audit: false, export: false })
    renderWithProviders(<VolunteersPage />)
    await screen.findByTestId('row-1')
    expect(screen.queryByTestId('review-pass-1')).toBeNull()
    expect(screen.queryByTestId('review-reject-1')).toBeNull()
    expect(screen.queryByText('操作')).toBeNull()
    await userEvent.setup().click(screen.getByTestId('review-tab-2'))
    await waitFor(() => expect(tabOf(2)).toHaveLength(1))
    expect(screen.queryByTestId('review-delete-1')).toBeNull()
    expect(screen.queryByTestId('review-export')).toBeNull()
  })

  it('deletes an approved volunteer after the confirm', async () => {
    api()
    renderWithProviders(<VolunteersPage />, '/?audit_status=2')
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('review-delete-1'))
    expect(await screen.findByText('是否删除公共志愿者王小明')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('删除成功！')).toBeInTheDocument()
    expect(deletes[0].params.id).toBe('1')
  })

  it('exports the approved tab as 公共志愿者.xlsx with the filters', async () => {
    api()
    const blobs: Blob[] = []
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
    renderWithProviders(<VolunteersPage />, '/?audit_status=2&has_cert=1')
    await userEvent.setup().click(await screen.findByTestId('review-export'))
    await waitFor(() => expect(saved).toEqual(['公共志愿者.xlsx']))
    const asked = lists.find((c) => c.query.get('export_xls') === 'true')
    expect(asked?.query.get('audit_status')).toBe('2')
    expect(asked?.query.get('has_cert')).toBe('1')
    expect(await blobs[0].text()).toBe('PK-xlsx')
    click.mockRestore()
  })

  it('marks possible duplicates; passing one compares first, and the reviewer decides there', async () => {
    api([
      volunteer({
        duplicates: [
          duplicate({
            kind: 'responder',
            id: 9,
            sn: null,
            label: '王小明',
            distance: null,
            similarity: null,
            reason: 'phone',
            photos: [],
          }),
        ],
      }),
    ])
    renderWithProviders(<VolunteersPage />)
    expect(await screen.findByTestId('review-duplicates-1')).toHaveTextContent('疑似重复 1')
    const user = userEvent.setup()
    await user.click(screen.getByTestId('review-pass-1'))
    const dialog = await screen.findByTestId('review-compare-modal')
    const match = within(dialog).getByTestId('review-match-responder-9')
    expect(match).toHaveTextContent('急救人员')
    expect(match).toHaveTextContent('手机号相同')
    expect(within(dialog).getByTestId('review-compare-map')).toBeInTheDocument()
    await user.click(within(dialog).getByTestId('review-compare-pass'))
    expect(await screen.findByText('审核通过！')).toBeInTheDocument()
    expect(audits[0].body).toEqual({ audit_status: 2 })
  })
})
