import { filesApi } from '@aed/contracts/files'
import { reviewApi, type ThirdPartyAed } from '@aed/contracts/review'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { LatLon } from '../../../components/MapView/datum'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import {
  callsOfTab,
  duplicate,
  readOnly,
  reviewListAnswer,
  thirdPartyAed,
} from '../../../test/reviewFixtures'
import { ThirdPartyAedsPage } from './ThirdPartyAedsPage'

vi.mock('../components/DuplicateMap', () => ({
  DuplicateMap: () => <div data-testid="review-compare-map" />,
}))
vi.mock('../../../components/MapPicker/MapPicker', () => ({
  PLACE_ZOOM: 16,
  MapPicker: ({ onChange }: { onChange?: (p: LatLon) => void }) => (
    <button type="button" data-testid="map-pick" onClick={() => onChange?.({ lat: 30.28, lon: 120.16 })}>
      pick
    </button>
  ),
}))

const lists: MockCall[] = []
const updates: MockCall[] = []
const uploads: MockCall[] = []

function api(rows: ThirdPartyAed[] = [thirdPartyAed()], can = { audit: true, export: true }) {
  return mockApi([
    recordOn(reviewApi.thirdPartyAeds, lists, reviewListAnswer(rows, can)),
    recordOn(reviewApi.updateThirdPartyAed, updates, ({ body }) => ({
      code: 0,
      msg: (body as { update_type: number }).update_type === 2 ? '修改成功！' : '',
      data: thirdPartyAed(),
    })),
    recordOn(filesApi.upload, uploads, () => ({
      code: 0,
      data: { access_url: '/files/new.png', file_name: 'new.png', size: 10, content_type: 'image/png' },
    })),
    on(reviewApi.deleteThirdPartyAed, () => ({ code: 0, msg: '删除成功！', data: { id: 1, name: '迈瑞' } })),
  ])
}

freshConsole({
  reset: () => {
    lists.length = 0
    updates.length = 0
    uploads.length = 0
  },
  signedIn: userInfo({ agency_type: 0, permissions: { agency: 'ALL' } }),
})

const tabOf = (status: number) => callsOfTab(lists, status)
const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent)

async function openEdit(rows?: ThirdPartyAed[]) {
  api(rows)
  renderWithProviders(<ThirdPartyAedsPage />, '/?audit_status=2')
  const user = userEvent.setup({ applyAccept: false })
  await user.click(await screen.findByTestId('review-edit-1'))
  return { user, dialog: await screen.findByTestId('review-aed-modal') }
}

describe('ThirdPartyAedsPage', () => {
  it('opens on 审核中 with pass and reject, up to two photos; approved has edit, delete and export', async () => {
    api()
    renderWithProviders(<ThirdPartyAedsPage />)
    await screen.findByTestId('row-1')
    expect(tabOf(1)).toHaveLength(1)
    expect(headers()).toEqual(
      expect.arrayContaining(['品牌', '安装地址', '详细位置', '现场图片', '提交人', '手机号', '提交时间']),
    )
    expect(screen.getByTestId('review-imgs-1').querySelectorAll('img')).toHaveLength(2)
    expect(screen.getByTestId('review-pass-1')).toBeInTheDocument()
    expect(screen.getByTestId('review-reject-1')).toBeInTheDocument()
    expect(screen.queryByTestId('review-edit-1')).toBeNull()
    expect(screen.queryByTestId('review-export')).toBeNull()

    const user = userEvent.setup()
    await user.click(screen.getByTestId('review-tab-2'))
    await waitFor(() => expect(tabOf(2)).toHaveLength(1))
    expect(await screen.findByTestId('review-edit-1')).toBeInTheDocument()
    expect(screen.getByTestId('review-delete-1')).toBeInTheDocument()
    expect(screen.getByTestId('review-export')).toBeInTheDocument()
    expect(screen.queryByTestId('review-pass-1')).toBeNull()

    await user.click(screen.getByTestId('review-tab-0'))
    await waitFor(() => expect(tabOf(0)).toHaveLength(1))
    await waitFor(() => expect(headers()).toContain('备注'))
    expect(screen.queryByTestId('review-export')).toBeNull()
    expect(screen.queryByTestId('review-edit-1')).toBeNull()
  })

  it('filters by brand', async () => {
    api()
    renderWithProviders(<ThirdPartyAedsPage />, '/?brand=飞利浦')
    await screen.findByTestId('row-1')
    expect(lists[0].query.get('brand')).toBe('飞利浦')
    expect(lists[0].query.get('audit_status')).toBe('1')
  })

  it('exports the approved tab as 公共AED列表.xlsx', async () => {
    api()
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL() {
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
    renderWithProviders(<ThirdPartyAedsPage />, '/?audit_status=2')
    await userEvent.setup().click(await screen.findByTestId('review-export'))
    await waitFor(() => expect(saved).toEqual(['公共AED列表.xlsx']))
    expect(lists.find((c) => c.query.get('export_xls') === 'true')?.query.get('audit_status')).toBe('2')
    click.mockRestore()
  })

  it('rejects with update_type 1 and the reason', async () => {
    api()
    renderWithProviders(<ThirdPartyAedsPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('review-reject-1'))
    const dialog = await screen.findByTestId('review-reject-modal')
    await user.type(within(dialog).getByTestId('review-reject-reason'), '照片不清晰')
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('提交成功！')).toBeInTheDocument()
    expect(updates[0].body).toEqual({ update_type: 1, audit_status: 0, rejected_reason: '照片不清晰' })
  })

  it('compares a possible duplicate side by side and can reject from there', async () => {
    api([
      thirdPartyAed({
        device_sn: 'A640000005',
        duplicates: [duplicate(), duplicate({ kind: 'third_party', id: 3, sn: null })],
      }),
    ])
    renderWithProviders(<ThirdPartyAedsPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('review-duplicates-1'))
    const dialog = await screen.findByTestId('review-compare-modal')
    expect(within(dialog).getByTestId('review-compare-submission')).toHaveTextContent('A640000005')
    const device = within(dialog).getByTestId('review-match-device-5')
    expect(device).toHaveTextContent('我方设备')
    expect(device).toHaveTextContent('12 米')
    expect(device).toHaveTextContent('62%')
    expect(device).toHaveTextContent('位置相近')
    expect(within(dialog).getByTestId('review-match-third_party-3')).toHaveTextContent('第三方AED')
    await user.click(within(dialog).getByTestId('review-compare-reject'))
    expect(await screen.findByTestId('review-reject-modal')).toBeInTheDocument()
  })

  it('hides pass and reject from a read-only member; its edit dialog says 暂无权限!', async () => {
    api([thirdPartyAed({ can: readOnly })], { audit: false, export: false })
    renderWithProviders(<ThirdPartyAedsPage />)
    await screen.findByTestId('row-1')
    expect(screen.queryByTestId('review-pass-1')).toBeNull()
    expect(screen.queryByTestId('review-reject-1')).toBeNull()
    const user = userEvent.setup()
    await user.click(screen.getByTestId('review-tab-2'))
    await user.click(await screen.findByTestId('review-edit-1'))
    const dialog = await screen.findByTestId('review-aed-modal')
    expect(screen.queryByTestId('review-delete-1')).toBeNull()
    expect(within(dialog).queryByTestId('image-upload')).toBeNull()
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('暂无权限!')).toBeInTheDocument()
    expect(updates).toHaveLength(0)
  })

  it('edits with update_type 2 and says 修改成功！', async () => {
    const { user, dialog } = await openEdit()
    await user.click(within(dialog).getByTestId('map-pick'))
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('修改成功！')).toBeInTheDocument()
    expect(updates[0].body).toEqual({
      update_type: 2,
      brand: '迈瑞',
      location: '浙江省杭州市西湖区文三路90号',
      location_desc: '一楼大厅',
      address_code: '330106',
      lat: 30.28,
      lon: 120.16,
      install_imgs: ['/files/site-1.jpg', '/files/site-2.jpg'],
    })
  })

  it('needs the brand (请选择型号) and the place (请选择安装位置)', async () => {
    const { user, dialog } = await openEdit([thirdPartyAed({ brand: '', location: '' })])
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await within(dialog).findByText('请选择型号')).toBeInTheDocument()
    expect(within(dialog).getAllByText('请选择安装位置').length).toBeGreaterThan(0)
    expect(updates).toHaveLength(0)
  })

  it('takes at most two photos, only jpg/jpeg/png under 20M', async () => {
    const { user, dialog } = await openEdit()
    const photos = within(dialog).getByTestId('review-install-imgs')
    // Two held: no third can be added.
    expect(within(photos).queryByTestId('image-upload')).toBeNull()
    await user.click(within(photos).getAllByRole('button', { name: /删\s?除|移除|remove/i })[0])
    const input = () => photos.querySelector('input[type=file]') as HTMLInputElement
    expect(input()).not.toBeNull()

    await user.upload(input(), new File(['GIF89a'], 'site.gif', { type: 'image/gif' }))
    expect(await screen.findByText('只能上传jpg/jpeg/png格式的图片！')).toBeInTheDocument()
    const big = new File(['x'], 'site.png', { type: 'image/png' })
    Object.defineProperty(big, 'size', { value: 20 * 1024 * 1024 + 1 })
    await user.upload(input(), big)
    expect(await screen.findByText('图片大小不能超过20M！')).toBeInTheDocument()
    expect(uploads).toHaveLength(0)

    await user.upload(input(), new File(['png'], 'site.png', { type: 'image/png' }))
    await waitFor(() => expect(uploads).toHaveLength(1))
    expect(uploads[0].init?.body).toBeInstanceOf(FormData)
    expect((uploads[0].init?.body as FormData).get('allow_suffix')).toBe('png,jpeg,jpg')
    await waitFor(() => expect(photos.querySelector('input[type=file]')).toBeNull())
    expect(photos.querySelectorAll('img')).toHaveLength(2)
  })
})
