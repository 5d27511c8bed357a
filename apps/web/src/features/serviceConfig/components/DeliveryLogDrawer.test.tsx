import { type ServiceConfig, serviceConfigApi, type WebhookDelivery } from '@aed/contracts/service-config'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { serviceConfigFixture } from '../serviceConfigFixtures'
import { DeliveryLogDrawer } from './DeliveryLogDrawer'

const config: ServiceConfig = serviceConfigFixture({ state: 1, push_url: 'https://hooks.example.com/aed' })

function delivery(patch: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: 31,
    message_id: 'msg_2x7Yk',
    event: 'device.event.opened',
    event_time: '2026-03-04T05:06:07Z',
    state: 'failed',
    attempts: 8,
    last_attempt_time: '2026-03-05T05:06:07Z',
    last_status: 502,
    last_error: 'HTTP 502',
    last_duration_ms: 1234,
    next_attempt_time: null,
    delivered_time: null,
    payload: { type: 'device.event.opened', timestamp: '2026-03-04T05:06:07Z', data: { sn: 'AED-0001' } },
    ...patch,
  }
}

const rows = [
  delivery(),
  delivery({
    id: 32,
    message_id: 'msg_test',
    event: 'webhook.test',
    state: 'pending',
    attempts: 1,
    last_status: null,
    last_error: 'timeout',
    last_duration_ms: null,
    next_attempt_time: '2026-03-04T05:07:07Z',
  }),
]

/** The calls the drawer made: its list reads (queries) and its writes (paths). */
const reads: URLSearchParams[] = []
const posts: { path: string; call: MockCall }[] = []

function api() {
  return mockApi([
    on(serviceConfigApi.deliveries, (call) => {
      reads.push(call.query)
      return { code: 0, data: { count: 23, resource: rows } }
    }),
    on(serviceConfigApi.resend, (call) => {
      posts.push({ path: `resend ${call.params.id}/${call.params.delivery_id}`, call })
      return { code: 0, msg: '已重新发送', data: delivery({ state: 'pending' }) }
    }),
    on(serviceConfigApi.test, (call) => {
      posts.push({ path: `test ${call.params.id}`, call })
      return {
        code: 0,
        msg: '测试事件已发送',
        data: delivery({ id: 33, event: 'webhook.test', state: 'delivered' }),
      }
    }),
    on(serviceConfigApi.update, (call) => {
      posts.push({ path: `update ${call.params.id}`, call })
      return { code: 0, msg: '修改成功', data: { ...config, push_disabled: null } }
    }),
  ])
}

freshConsole({
  reset: () => {
    reads.length = 0
    posts.length = 0
  },
  signedIn: userInfo({ role_type: 0, agency_type: 0, permissions: {} }),
})

describe('DeliveryLogDrawer', () => {
  it('lists a page of deliveries with their attempts, status, time taken, next try and state', async () => {
    api()
    renderWithProviders(<DeliveryLogDrawer config={config} canUpdate onClose={() => undefined} />)
    const failed = await screen.findByTestId('delivery-31')
    expect(screen.getByTestId('delivery-drawer')).toHaveTextContent('推送记录 · 杭州市西湖区急救中心')
    expect(screen.getByTestId('delivery-push-url')).toHaveTextContent('https://hooks.example.com/aed')
    const cells = [...failed.querySelectorAll('td')].map((td) => td.textContent)
    expect(cells).toEqual(
      expect.arrayContaining(['2026-03-04 13:06:07', 'device.event.opened', '8', '502', '1234', '-', '失败']),
    )
    const pending = screen.getByTestId('delivery-32')
    expect(pending).toHaveTextContent('webhook.test')
    expect(pending).toHaveTextContent('2026-03-04 13:07:07')
    expect(within(pending).getByText('重试中')).toHaveClass('ant-tag')
    expect(reads[0].get('page')).toBe('1')
    expect(reads[0].get('page_size')).toBe('10')
    expect(screen.getByText('共 23 条')).toBeInTheDocument()
  })

  it('shows the payload as JSON in the expanded row', async () => {
    api()
    renderWithProviders(<DeliveryLogDrawer config={config} canUpdate onClose={() => undefined} />)
    const row = await screen.findByTestId('delivery-31')
    await userEvent.setup().click(within(row).getByRole('button', { name: /展开行|expand/i }))
    const payload = await screen.findByTestId('delivery-payload-31')
    expect(payload).toHaveTextContent('"sn": "AED-0001"')
    expect(payload).toHaveTextContent('msg_2x7Yk')
    expect(payload).toHaveTextContent('HTTP 502')
  })

  it('resends a delivery and sends a test event, each by its own path, and reads the log again', async () => {
    api()
    renderWithProviders(<DeliveryLogDrawer config={config} canUpdate onClose={() => undefined} />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('delivery-resend-31'))
    let before = reads.length
    await waitFor(() => expect(posts.map((p) => p.path)).toEqual(['resend 9/31']))
    expect(await screen.findByText('已重新发送')).toBeInTheDocument()
    await waitFor(() => expect(reads.length).toBeGreaterThan(before))
    before = reads.length
    await user.click(screen.getByTestId('delivery-test'))
    await waitFor(() => expect(posts.map((p) => p.path)).toEqual(['resend 9/31', 'test 9']))
    expect(await screen.findByText('测试事件已发送')).toBeInTheDocument()
    await waitFor(() => expect(reads.length).toBeGreaterThan(before))
  })

  it('filters by state and event from page 1', async () => {
    api()
    renderWithProviders(<DeliveryLogDrawer config={config} canUpdate onClose={() => undefined} />)
    const user = userEvent.setup()
    await screen.findByTestId('delivery-31')
    await user.click(screen.getByTitle('2'))
    await waitFor(() => expect(reads.at(-1)?.get('page')).toBe('2'))
    await user.click(within(screen.getByTestId('delivery-filter-state')).getByRole('combobox'))
    await user.click(await screen.findByTitle('失败'))
    await waitFor(() => expect(reads.at(-1)?.get('state')).toBe('failed'))
    expect(reads.at(-1)?.get('page')).toBe('1')
    await user.click(within(screen.getByTestId('delivery-filter-event')).getByRole('combobox'))
    await user.click(await screen.findByTitle('webhook.test'))
    await waitFor(() => expect(reads.at(-1)?.get('event')).toBe('webhook.test'))
    expect(reads.at(-1)?.get('state')).toBe('failed')
  })

  it('offers no resend or test event without can.update', async () => {
    api()
    renderWithProviders(<DeliveryLogDrawer config={config} canUpdate={false} onClose={() => undefined} />)
    await screen.findByTestId('delivery-31')
    expect(screen.queryByTestId('delivery-resend-31')).toBeNull()
    expect(screen.queryByTestId('delivery-test')).toBeNull()
  })

  it('cannot send a test event without an enabled push URL, and 恢复推送 enables it', async () => {
    api()
    const disabled = {
      ...config,
      push_disabled: { reason: 'failing' as const, time: '2026-03-04T05:06:07Z' },
    }
    renderWithProviders(<DeliveryLogDrawer config={disabled} canUpdate onClose={() => undefined} />)
    await screen.findByTestId('delivery-31')
    expect(screen.getByTestId('delivery-test')).toBeDisabled()
    expect(screen.getByTestId('delivery-32')).toHaveTextContent('恢复推送后')
    expect(within(screen.getByTestId('delivery-32')).getByText('待发送')).toHaveClass('ant-tag')
    const alert = screen.getByTestId('push-disabled-alert')
    expect(alert).toHaveTextContent('连续失败超过一天')
    await userEvent.setup().click(within(alert).getByTestId('push-enable'))
    await waitFor(() => expect(posts.map((p) => p.path)).toEqual(['update 9']))
    // The push URL goes too: the contract reads a missing one as null (none).
    expect(posts[0].call.body).toEqual({
      service: ['event_push'],
      state: 1,
      push_url: 'https://hooks.example.com/aed',
      enable_push: true,
    })
  })
})
