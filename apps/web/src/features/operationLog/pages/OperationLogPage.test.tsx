import { operationLogApi } from '@aed/contracts/operation-log'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { OperationLogPage } from './OperationLogPage'

const row = {
  id: 1,
  operator: '系统超级管理员',
  operation_type: '登录',
  content: '登录方式：密码',
  agency_name: '运营中心',
  create_time: '2026-11-22 03:57:19',
}

function api() {
  return mockApi([on(operationLogApi.list, () => ({ code: 0, data: { count: 1, resource: [row] } }))])
}
const urls = (m: ReturnType<typeof api>) => m.mock.calls.map(([u]) => new URL(String(u), 'http://x'))

freshConsole({
  signedIn: userInfo({ role_type: 0, permissions: {} }),
  restoreMocks: true,
})

describe('OperationLogPage', () => {
  it('shows the last 180 days by default and asks the server for them', async () => {
    const fetchMock = api()
    renderWithProviders(<OperationLogPage />)
    expect(await screen.findByText('登录方式：密码')).toBeInTheDocument()
    expect(screen.getByTestId('time-range-trigger')).toHaveTextContent('近180天')
    const q = urls(fetchMock)[0].searchParams
    expect(q.get('page')).toBe('1')
    const days = (Date.parse(q.get('end_time')!) - Date.parse(q.get('start_time')!)) / 86_400_000
    expect(days).toBe(180)
  })

  it('exports the filtered rows and downloads file_url', async () => {
    const fetchMock = api()
    fetchMock.mockImplementation(async (input) => {
      const url = new URL(String(input), 'http://x')
      const data = url.searchParams.get('export_xls')
        ? { file_url: '/files/log.xlsx', count: 1 }
        : { count: 1, resource: [row] }
      return new Response(JSON.stringify({ code: 0, msg: '', data }), { status: 200 })
    })
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    renderWithProviders(<OperationLogPage />, '/?operator=%E7%8E%8B')
    await screen.findByText('登录方式：密码')
    await userEvent.setup().click(screen.getByTestId('log-export'))
    await waitFor(() => expect(click).toHaveBeenCalled())
    const exported = urls(fetchMock).find((u) => u.searchParams.get('export_xls') === 'true')!
    expect(exported.searchParams.get('operator')).toBe('王')
    expect(exported.searchParams.get('page')).toBeNull()
    expect((click.mock.instances[0] as unknown as HTMLAnchorElement).getAttribute('href')).toBe(
      '/files/log.xlsx',
    )
    expect(await screen.findByText('导出成功，共1条')).toBeInTheDocument()
  })
})
