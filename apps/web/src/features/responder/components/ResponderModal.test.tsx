import { mapApi } from '@aed/contracts/map'
import { memberApi } from '@aed/contracts/member'
import { responderApi } from '@aed/contracts/responder'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { responder } from '../../../test/responderFixtures'
import ResponderModal from './ResponderModal'

vi.mock('../../../components/MapView/MapView', () => ({ MapView: () => <div data-testid="map-stub" /> }))

type Account = { name: string; [field: string]: unknown }
const person: Account = {
  name: '赵六',
  email: 'zhao@aed.cn',
  gender: 2,
  birth: '1990-01-02',
  location: '浙江省杭州市西湖区文三路20号',
  location_desc: '2号楼301',
  address_code: '330106',
  lat: 30.27,
  lon: 120.15,
}
/** The lookup's answers by phone; a phone not listed has no account. */
const accounts: Record<string, { exists: boolean; account: Account | null }> = {
  '13800000002': { exists: true, account: { name: '赵六' } },
  '13800000003': { exists: true, account: { name: '赵六', birth: '1990-01-02' } },
  '13800000004': { exists: true, account: { name: '赵六', birth: '1990-01-02', gender: 2 } },
  '13800000005': { exists: true, account: { name: '赵六', birth: '1990-01-02', gender: 2, lat: 30.27 } },
  '13800000009': { exists: true, account: person },
  '13800000008': { exists: true, account: null },
}
const saved: MockCall[] = []

function api() {
  return mockApi([
    on(memberApi.lookupAccount, ({ params }) => ({
      code: 0,
      data: (accounts[params.phone] ?? { exists: false, account: null }) as never,
    })),
    on(mapApi.suggestion, () => ({ code: 0, data: [] })),
    recordOn(responderApi.create, saved, () => ({ code: 0, msg: '添加成功！', data: responder() })),
  ])
}

freshConsole({ reset: () => saved.splice(0), signedIn: userInfo() })

function open() {
  api()
  renderWithProviders(<ResponderModal id={null} open canCreate onClose={() => {}} />)
  return userEvent.setup()
}

async function typePhone(user: ReturnType<typeof userEvent.setup>, phone: string) {
  const input = await screen.findByTestId('responder-phone')
  await user.clear(input)
  await user.type(input, phone)
}

async function choose(user: ReturnType<typeof userEvent.setup>, testId: string, title: string) {
  await user.click(screen.getByTestId(testId))
  await user.click(await screen.findByTitle(title))
}

const ok = () => screen.getByRole('button', { name: /确\s?定/ })

describe('ResponderModal', () => {
  it('prefills the person from an 11-digit phone’s account', async () => {
    const user = open()
    expect(await screen.findByText('登记急救人员')).toBeInTheDocument()
    expect(screen.getByTestId('responder-agency')).toHaveValue('西湖急救中心')
    expect(screen.getByTestId('responder-by')).toHaveValue('调度员')
    await typePhone(user, '13800000009')
    expect(await screen.findByText('该手机号已注册，已自动填入个人信息')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByTestId('responder-name')).toHaveValue('赵六'))
    expect(screen.getByTestId('responder-email')).toHaveValue('zhao@aed.cn')
    expect(screen.getByTestId('responder-location-desc')).toHaveValue('2号楼301')
    expect(screen.getByTestId('responder-lat')).toHaveValue('30.270000')
    expect(screen.getByDisplayValue('1990-01-02')).toBeInTheDocument()
  })

  it('says a phone of another organisation’s account belongs elsewhere', async () => {
    const user = open()
    await typePhone(user, '13800000008')
    expect(await screen.findByText('该电话的账号属于其他机构，请由其所在机构登记')).toBeInTheDocument()
    expect(screen.getByTestId('responder-name')).toHaveValue('')
  })

  it('asks for the phone first: 请先填写电话！, and the field stays empty', async () => {
    const user = open()
    await user.type(await screen.findByTestId('responder-name'), '王')
    expect(await screen.findByText('请先填写电话！')).toBeInTheDocument()
    expect(screen.getByTestId('responder-name')).toHaveValue('')
  })

  it('runs the submit checks in the spec’s order', async () => {
    const user = open()
    const refuses = async (text: string) => {
      await user.click(ok())
      expect(await screen.findByText(text)).toBeInTheDocument()
    }
    await refuses('请输入联系电话!')
    await typePhone(user, '1380000000')
    await refuses('请输入正确的联系电话!')
    await typePhone(user, '13800000001')
    await refuses('请输入姓名!')
    await typePhone(user, '13800000002')
    await waitFor(() => expect(screen.getByTestId('responder-name')).toHaveValue('赵六'))
    await refuses('请选择出生日期!')
    await typePhone(user, '13800000003')
    await waitFor(() => expect(screen.getByDisplayValue('1990-01-02')).toBeInTheDocument())
    await refuses('请选择性别!')
    await typePhone(user, '13800000004')
    await waitFor(() => expect(screen.getByRole('radio', { name: '女' })).toBeChecked())
    await refuses('请选择地址!')
    await typePhone(user, '13800000005')
    await waitFor(() => expect(screen.getByTestId('responder-lat')).toHaveValue('30.270000'))
    await refuses('请在地图上确认急救人员位置')
    // A professional's missing image comes before the missing longitude.
    await choose(user, 'responder-aptitude', '专业')
    await refuses('请添加证书图片!')
    expect(saved).toEqual([])
  }, 40_000)

  it('requires the certificate fields only of a professional', async () => {
    const user = open()
    await typePhone(user, '13800000001')
    expect(screen.queryByTestId('responder-certificate-num')).toBeNull()
    await user.click(ok())
    expect(await screen.findByText('请选择急救资质')).toBeInTheDocument()
    expect(screen.queryByText('请输入证书编号')).toBeNull()
    await choose(user, 'responder-aptitude', '专业')
    expect(await screen.findByTestId('responder-certificate-num')).toBeInTheDocument()
    await user.click(ok())
    expect(await screen.findByText('请输入证书编号')).toBeInTheDocument()
    expect(screen.getByText('请选择证书有效期')).toBeInTheDocument()
    await choose(user, 'responder-aptitude', '非专业')
    await waitFor(() => expect(screen.queryByTestId('responder-certificate-num')).toBeNull())
  })

  it('saves a non-professional with the account nested and no certificate: 添加成功！', async () => {
    const user = open()
    await typePhone(user, '13800000009')
    await waitFor(() => expect(screen.getByTestId('responder-name')).toHaveValue('赵六'))
    await choose(user, 'responder-aptitude', '非专业')
    await user.click(within(screen.getByTestId('responder-status')).getByText('是'))
    await user.click(ok())
    expect(await screen.findByText('添加成功！')).toBeInTheDocument()
    expect(saved[0].body).toMatchObject({
      account: {
        phone: '13800000009',
        name: '赵六',
        birth: '1990-01-02',
        gender: 2,
        lat: 30.27,
        lon: 120.15,
      },
      aid_aptitude: 0,
      certificate_num: null,
      certificate_expire: null,
      certificate_img: null,
      agency_id: 10,
      status: 1,
    })
  })
})
