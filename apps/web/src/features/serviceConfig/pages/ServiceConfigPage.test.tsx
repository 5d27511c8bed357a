import { agencyApi } from '@aed/contracts/agency'
import { constantsApi, DEFAULT_COORDINATE } from '@aed/contracts/constants'
import { type ServiceConfig, serviceConfigApi } from '@aed/contracts/service-config'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../../i18n'
import { sessionStore } from '../../../lib/session'
import { storage } from '../../../lib/storage'
import { tree } from '../../../test/adminFixtures'
import { userInfo } from '../../../test/fixtures'
import { mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { ServiceConfigPage } from './ServiceConfigPage'

const config: ServiceConfig = {
  id: 9,
  agency_id: 4,
  agency_name: '杭州市西湖区急救中心',
  service: ['event_push'],
  service_list: ['事件推送'],
  state: 0,
  apply_time: '2026-01-02T03:04:05Z',
  level: 3,
  push_url: null,
  push_disabled: null,
}
/** The list's `can`: add and modify for system super administrators (who alone get the list). */
const systemSuperCan = { create: true, update: true }

function api(can = systemSuperCan) {
  return mockApi([
    on(agencyApi.tree, () => ({ code: 0, data: { resource: tree } })),
    on(constantsApi.constants, () => ({
      code: 0,
      data: {
        device: { model: {}, brand: [], default_coordinate: DEFAULT_COORDINATE },
        app_service: { event_push: '事件推送', open_api: '开放接口' },
      },
    })),
    on(serviceConfigApi.list, () => ({ code: 0, data: { count: 1, resource: [config], can } })),
    on(serviceConfigApi.detail, () => ({
      code: 0,
      data: { ...config, secret: 's3cr3t', access_token: 'tok-9' },
    })),
  ])
}

beforeEach(async () => {
  storage.clear()
  await i18n.changeLanguage('zh-CN')
})
afterEach(() => vi.unstubAllGlobals())

describe('ServiceConfigPage', () => {
  it('lists services and shows a disabled state in red', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 0, permissions: {} }))
    renderWithProviders(<ServiceConfigPage />)
    const row = await screen.findByTestId('row-9')
    expect(row).toHaveTextContent('事件推送')
    expect(within(row).getByText('禁用')).toHaveClass('ant-typography-danger')
  })

  it('titles the dialog 详情 (no secrets) or 修改 (secret and token read-only, with copy)', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 0, permissions: {} }))
    renderWithProviders(<ServiceConfigPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('service-detail-9'))
    expect(await screen.findByTestId('service-detail')).toBeInTheDocument()
    expect(screen.getByRole('dialog')).toHaveTextContent('详情')
    expect(screen.queryByTestId('service-secret')).toBeNull()
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    await user.click(screen.getByTestId('service-modify-9'))
    await waitFor(() => expect(screen.getByTestId('service-secret')).toHaveValue('s3cr3t'))
    expect(screen.getByTestId('service-token')).toHaveValue('tok-9')
    expect(screen.getByTestId('service-secret')).toHaveAttribute('readonly')
    expect(screen.getAllByRole('button', { name: /复\s?制/ })).toHaveLength(2)
  })

  it('refuses everyone but a super administrator of the system organisation', async () => {
    api({ create: false, update: false })
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 1, permissions: {} }))
    renderWithProviders(<ServiceConfigPage />)
    await userEvent.setup().click(await screen.findByTestId('service-add'))
    expect(await screen.findByText('无权限操作')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('follows the list’s can, not the member’s role', async () => {
    api({ create: false, update: false })
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 0, permissions: {} }))
    renderWithProviders(<ServiceConfigPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('service-modify-9'))
    expect(await screen.findByText('无权限操作')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
