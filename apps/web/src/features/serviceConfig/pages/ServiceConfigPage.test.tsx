import { agencyApi } from '@aed/contracts/agency'
import { constantsApi, DEFAULT_COORDINATE } from '@aed/contracts/constants'
import { type ServiceConfig, serviceConfigApi } from '@aed/contracts/service-config'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ConfigProvider } from 'antd'
import { describe, expect, it } from 'vitest'
import { sessionStore } from '../../../lib/session'
import { tree } from '../../../test/adminFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { serviceConfigFixture } from '../serviceConfigFixtures'
import { ServiceConfigPage } from './ServiceConfigPage'

const config: ServiceConfig = serviceConfigFixture()
/** The list's `can`: add and modify for system super administrators (who alone get the list). */
const systemSuperCan = { create: true, update: true }
const SECRET = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ='

/** The writes the page sent, in order. */
const writes: { method: 'POST' | 'PUT'; call: MockCall }[] = []

function api({
  can = systemSuperCan,
  row = config,
}: {
  can?: typeof systemSuperCan
  row?: ServiceConfig
} = {}) {
  const withSecrets = { ...row, secret: 's3cr3t', access_token: 'tok-9', previous_secret_until: null }
  return mockApi([
    on(agencyApi.tree, () => ({ code: 0, data: { resource: tree } })),
    on(constantsApi.constants, () => ({
      code: 0,
      data: {
        device: { model: {}, brand: [], default_coordinate: DEFAULT_COORDINATE },
        app_service: { event_push: '事件推送', open_api: '开放接口' },
      },
    })),
    on(serviceConfigApi.list, () => ({ code: 0, data: { count: 1, resource: [row], can } })),
    on(serviceConfigApi.detail, () => ({ code: 0, data: withSecrets })),
    on(serviceConfigApi.deliveries, (call) => {
      expect(call.params).toEqual({ id: String(row.id) })
      return { code: 0, data: { count: 0, resource: [] } }
    }),
    on(serviceConfigApi.create, (call) => {
      writes.push({ method: 'POST', call })
      const body = call.body as { push_url: string | null }
      return {
        code: 0,
        msg: '新增成功',
        data: { ...withSecrets, id: 10, push_url: body.push_url, push_secret: SECRET },
      }
    }),
    on(serviceConfigApi.update, (call) => {
      writes.push({ method: 'PUT', call })
      const body = call.body as {
        regenerate?: boolean
        regenerate_push_secret?: boolean
        enable_push?: boolean
        push_url?: string | null
      }
      return {
        code: 0,
        msg: '修改成功',
        data: {
          ...withSecrets,
          push_url: body.push_url === undefined ? row.push_url : body.push_url,
          push_disabled: body.enable_push ? null : row.push_disabled,
          ...(body.regenerate
            ? { secret: 'n3w', access_token: 'tok-new', previous_secret_until: '2099-01-01T00:00:00Z' }
            : {}),
          ...(body.regenerate_push_secret ? { push_secret: SECRET } : {}),
        },
      }
    }),
  ])
}

freshConsole({
  reset: () => {
    writes.length = 0
  },
  signedIn: userInfo({ role_type: 0, agency_type: 0, permissions: {} }),
})

async function openModify(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByTestId('service-modify-9'))
  await waitFor(() => expect(screen.getByTestId('service-secret')).toHaveValue('s3cr3t'))
  return screen.getByTestId('service-modal')
}

describe('ServiceConfigPage', () => {
  it('lists services and shows a disabled state in red', async () => {
    api()
    renderWithProviders(<ServiceConfigPage />)
    const row = await screen.findByTestId('row-9')
    expect(row).toHaveTextContent('事件推送')
    expect(within(row).getByText('禁用')).toHaveClass('ant-typography-danger')
  })

  it('titles the dialog 详情 (no secrets) or 修改 (secret and token read-only, with copy)', async () => {
    api()
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
    api({ can: { create: false, update: false } })
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 1, permissions: {} }))
    renderWithProviders(<ServiceConfigPage />)
    await userEvent.setup().click(await screen.findByTestId('service-add'))
    expect(await screen.findByText('无权限操作')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('follows the list’s can, not the member’s role', async () => {
    api({ can: { create: false, update: false } })
    renderWithProviders(<ServiceConfigPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('service-modify-9'))
    expect(await screen.findByText('无权限操作')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('asks for a push URL with a push service, checks it as the contract does, and shows the webhook secret once', async () => {
    api()
    renderWithProviders(<ServiceConfigPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('service-add'))
    const dialog = await screen.findByTestId('service-modal')
    expect(within(dialog).queryByTestId('service-push-url')).toBeNull()
    await user.click(within(dialog).getByRole('checkbox', { name: '开放接口' }))
    expect(within(dialog).queryByTestId('service-push-url')).toBeNull()
    await user.click(within(dialog).getByRole('checkbox', { name: '事件推送' }))
    const url = within(dialog).getByTestId('service-push-url')
    await user.type(url, 'ftp://example.com/hook')
    await user.click(within(dialog).getByRole('combobox'))
    await waitFor(() =>
      expect(document.querySelector('.ant-select-item-option[title="杭州市西湖区急救中心"]')).not.toBeNull(),
    )
    await user.click(
      document.querySelector('.ant-select-item-option[title="杭州市西湖区急救中心"]') as HTMLElement,
    )
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    expect(await within(dialog).findByText('推送地址须为http(s)网址')).toBeInTheDocument()
    expect(writes).toHaveLength(0)

    await user.clear(url)
    await user.click(url)
    await user.paste(`https://example.com/${'a'.repeat(500)}`)
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    expect(await within(dialog).findByText('推送地址须为http(s)网址')).toBeInTheDocument()

    await user.clear(url)
    await user.type(url, ' https://hooks.example.com/aed ')
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    await waitFor(() => expect(writes).toHaveLength(1))
    expect(writes[0].call.body).toEqual({
      agency_id: 4,
      service: ['event_push', 'open_api'],
      state: 1,
      push_url: 'https://hooks.example.com/aed',
    })
    const issued = await screen.findByTestId('issued-modal')
    expect(within(issued).getByTestId('issued-push-secret')).toHaveValue(SECRET)
    expect(issued).toHaveTextContent('推送密钥只显示这一次，关闭后无法再次查看')
    expect(issued).toHaveTextContent('推送到 https://hooks.example.com/aed')
    expect(within(issued).getByRole('button', { name: /复\s?制/ })).toBeEnabled()
    expect(within(issued).queryByTestId('issued-previous')).toBeNull()
  })

  it('sends no push URL once the push services are unchecked, and shows no secret for it', async () => {
    api({ row: { ...config, push_url: 'https://hooks.example.com/aed' } })
    renderWithProviders(<ServiceConfigPage />)
    const user = userEvent.setup()
    const dialog = await openModify(user)
    expect(within(dialog).getByTestId('service-push-url')).toHaveValue('https://hooks.example.com/aed')
    await user.click(within(dialog).getByRole('checkbox', { name: '开放接口' }))
    await user.click(within(dialog).getByRole('checkbox', { name: '事件推送' }))
    expect(within(dialog).queryByTestId('service-push-url')).toBeNull()
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    await waitFor(() => expect(writes).toHaveLength(1))
    expect(writes[0].call.body).toEqual({
      service: ['open_api'],
      state: 0,
      regenerate: false,
      push_url: null,
    })
    expect(screen.queryByTestId('issued-modal')).toBeNull()
  })

  it('starts a new configuration empty after modifying another', async () => {
    api({ row: { ...config, push_url: 'https://hooks.example.com/aed' } })
    // Without motion the closed dialog's content unmounts at once, as a browser's does after
    // its closing animation: the new dialog mounts a fresh form on the same store.
    renderWithProviders(
      <ConfigProvider theme={{ token: { motion: false } }}>
        <ServiceConfigPage />
      </ConfigProvider>,
    )
    const user = userEvent.setup()
    await openModify(user)
    expect(screen.getByRole('checkbox', { name: '事件推送' })).toBeChecked()
    await user.click(screen.getByRole('button', { name: /取\s?消/ }))
    await waitFor(() => expect(screen.queryByTestId('service-secret')).toBeNull())
    await user.click(screen.getByTestId('service-add'))
    await screen.findByTestId('service-agency')
    expect(screen.getByRole('checkbox', { name: '事件推送' })).not.toBeChecked()
    expect(screen.getByRole('radio', { name: '启用' })).toBeChecked()
    expect(screen.queryByTestId('service-push-url')).toBeNull()
  })

  it('regenerates the webhook secret on its own and shows the new one once', async () => {
    api({ row: { ...config, push_url: 'https://hooks.example.com/aed' } })
    renderWithProviders(<ServiceConfigPage />)
    const user = userEvent.setup()
    const dialog = await openModify(user)
    await user.click(within(dialog).getByTestId('push-regenerate'))
    expect((await screen.findAllByText('重新生成推送密钥？')).length).toBeGreaterThan(0)
    await user.click(screen.getAllByRole('button', { name: /确\s?定/ }).at(-1) as HTMLElement)
    await waitFor(() => expect(writes).toHaveLength(1))
    expect(writes[0].call.params).toEqual({ id: '9' })
    expect(writes[0].call.body).toEqual({
      service: ['event_push'],
      state: 0,
      push_url: 'https://hooks.example.com/aed',
      regenerate_push_secret: true,
    })
    const issued = await screen.findByTestId('issued-modal')
    expect(within(issued).getByTestId('issued-push-secret')).toHaveValue(SECRET)
    expect(issued).toHaveTextContent('只显示这一次')
  })

  it('asks for a fresh webhook secret when a first push URL is saved', async () => {
    api()
    renderWithProviders(<ServiceConfigPage />)
    const user = userEvent.setup()
    const dialog = await openModify(user)
    expect(within(dialog).queryByTestId('push-regenerate')).toBeNull()
    await user.type(within(dialog).getByTestId('service-push-url'), 'https://hooks.example.com/new')
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    await waitFor(() => expect(writes).toHaveLength(1))
    expect(writes[0].call.body).toMatchObject({
      push_url: 'https://hooks.example.com/new',
      regenerate_push_secret: true,
    })
    expect(await screen.findByTestId('issued-push-secret')).toHaveValue(SECRET)
  })

  it('after 重新生成密钥和访问令牌 shows the new pair and until when the old one works', async () => {
    api()
    renderWithProviders(<ServiceConfigPage />)
    const user = userEvent.setup()
    const dialog = await openModify(user)
    await user.click(within(dialog).getByRole('checkbox', { name: '重新生成密钥和访问令牌' }))
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    const issued = await screen.findByTestId('issued-modal')
    expect(writes[0].call.body).toMatchObject({ regenerate: true })
    expect(within(issued).getByTestId('issued-secret')).toHaveValue('n3w')
    expect(within(issued).getByTestId('issued-token')).toHaveValue('tok-new')
    expect(within(issued).getByTestId('issued-previous')).toHaveTextContent(
      '旧的密钥和访问令牌在 2099-01-01 08:00:00 之前仍然有效',
    )
    expect(within(issued).queryByTestId('issued-push-secret')).toBeNull()
  })

  it('shows a disabled push in the list and the dialog, and 恢复推送 enables it', async () => {
    api({
      row: {
        ...config,
        push_url: 'https://hooks.example.com/aed',
        push_disabled: { reason: 'gone', time: '2026-03-04T05:06:07Z' },
      },
    })
    renderWithProviders(<ServiceConfigPage />)
    const user = userEvent.setup()
    const tag = await screen.findByTestId('push-disabled-9')
    expect(tag).toHaveTextContent('已停用推送：接收方返回410')
    expect(tag).toHaveClass('ant-tag-red')
    const dialog = await openModify(user)
    const alert = within(dialog).getByTestId('push-disabled-alert')
    expect(alert).toHaveTextContent('推送已停用：接收方返回410（2026-03-04 13:06:07）')
    await user.click(within(alert).getByTestId('push-enable'))
    await waitFor(() => expect(writes).toHaveLength(1))
    expect(writes[0].call.body).toEqual({
      service: ['event_push'],
      state: 0,
      push_url: 'https://hooks.example.com/aed',
      enable_push: true,
    })
    expect(await screen.findByText('已恢复推送')).toBeInTheDocument()
  })

  it('names a day of failures as the reason', async () => {
    api({
      row: {
        ...config,
        push_url: 'https://hooks.example.com/aed',
        push_disabled: { reason: 'failing', time: '2026-03-04T05:06:07Z' },
      },
    })
    renderWithProviders(<ServiceConfigPage />)
    expect(await screen.findByTestId('push-disabled-9')).toHaveTextContent('已停用推送：连续失败超过一天')
  })
  it('opens a configuration’s 推送记录 from its row', async () => {
    api({ row: { ...config, state: 1, push_url: 'https://hooks.example.com/aed' } })
    renderWithProviders(<ServiceConfigPage />)
    await userEvent.setup().click(await screen.findByTestId('service-deliveries-9'))
    const drawer = await screen.findByTestId('delivery-drawer')
    expect(drawer).toHaveTextContent('推送记录 · 杭州市西湖区急救中心')
    expect(await within(drawer).findByTestId('delivery-test')).toBeEnabled()
  })

  it('offers no 推送记录 to a configuration without push services', async () => {
    api({ row: { ...config, service: ['open_api'], service_list: ['开放接口'] } })
    renderWithProviders(<ServiceConfigPage />)
    await screen.findByTestId('service-modify-9')
    expect(screen.queryByTestId('service-deliveries-9')).toBeNull()
  })
})
