import { classroomApi } from '@aed/contracts/classroom'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { sessionStore } from '../../../lib/session'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { ClassroomPage } from './ClassroomPage'

const item = {
  id: 3,
  agency_id: 1,
  agency_name: '运营中心',
  title: '心肺复苏',
  category: 1,
  describe: '',
  link: 'v-123',
  illustration: null,
  content_type: 2,
  creator_name: '管理员',
  create_time: '2026-01-02T03:04:05Z',
  update_time: '2026-01-02T03:04:05Z',
}
const saved: unknown[] = []
/** The list's `can`, as the server computes it for the member signed in. */
const allowed = { create: true, edit: true, delete: true }
let answeredCan = allowed
function api() {
  return mockApi([
    on(classroomApi.list, () => ({ code: 0, data: { count: 1, resource: [item], can: answeredCan } })),
    on(classroomApi.detail, () => ({ code: 0, data: { ...item, content: '' } })),
    on(classroomApi.create, ({ body }) => {
      saved.push(body)
      return { code: 0, msg: '添加成功！', data: { ...item, id: 4, content: '' } }
    }),
  ])
}

freshConsole({
  reset: () => {
    saved.length = 0
  },
})

async function choose(testId: string, title: string) {
  const user = userEvent.setup()
  await user.click(screen.getByTestId(testId))
  await waitFor(() =>
    expect(document.querySelector(`.ant-select-item-option[title="${title}"]`)).not.toBeNull(),
  )
  await user.click(document.querySelector(`.ant-select-item-option[title="${title}"]`)!)
}

describe('ClassroomPage', () => {
  it('titles the dialog 新建 / 编辑 and hides create and delete from read-only members', async () => {
    api()
    answeredCan = allowed
    sessionStore.signIn(userInfo({ role_type: 0, permissions: {} }))
    const first = renderWithProviders(<ClassroomPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('classroom-add'))
    expect(within(await screen.findByRole('dialog')).getByText('新建')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /取\s?消/ }))
    await user.click(screen.getByTestId('classroom-edit-3'))
    await waitFor(() => expect(screen.getByTestId('classroom-title')).toHaveValue('心肺复苏'))
    expect(screen.getByRole('dialog')).toHaveTextContent('编辑')
    first.unmount()
    answeredCan = { create: false, edit: false, delete: false }
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { agency: 'READ_ONLY' } }))
    renderWithProviders(<ClassroomPage />)
    await screen.findByText('心肺复苏')
    expect(screen.queryByTestId('classroom-add')).toBeNull()
    expect(screen.queryByTestId('classroom-delete-3')).toBeNull()
    answeredCan = allowed
  })

  it('follows the list’s can, not the member’s role', async () => {
    api()
    answeredCan = { create: false, edit: false, delete: false }
    sessionStore.signIn(userInfo({ role_type: 0, permissions: {} }))
    const first = renderWithProviders(<ClassroomPage />)
    await screen.findByText('心肺复苏')
    expect(screen.queryByTestId('classroom-add')).toBeNull()
    expect(screen.queryByTestId('classroom-delete-3')).toBeNull()
    expect(screen.getByTestId('classroom-edit-3')).toHaveTextContent('详情')
    first.unmount()

    answeredCan = allowed
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { agency: 'READ_ONLY' } }))
    renderWithProviders(<ClassroomPage />)
    await screen.findByText('心肺复苏')
    expect(screen.getByTestId('classroom-add')).toBeInTheDocument()
    expect(screen.getByTestId('classroom-delete-3')).toBeInTheDocument()
  })

  it('asks non-video items for cover and summary, and a video only for type, title and link', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 0, permissions: {} }))
    renderWithProviders(<ClassroomPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('classroom-add'))
    await user.click(await screen.findByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('类型不能为空！')).toBeInTheDocument()
    expect(screen.getByText('标题不能为空！')).toBeInTheDocument()
    expect(screen.getByText('封面插图不能为空！')).toBeInTheDocument()
    expect(screen.getByText('内容简介不能为空！')).toBeInTheDocument()
    await choose('classroom-category', '操作视频')
    await waitFor(() => expect(screen.queryByText('封面插图不能为空！')).toBeNull())
    await user.type(screen.getByTestId('classroom-title'), '除颤仪使用')
    await user.type(screen.getByTestId('classroom-link'), 'v-9')
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('添加成功！')).toBeInTheDocument()
    expect(saved).toEqual([
      {
        category: 1,
        title: '除颤仪使用',
        describe: '',
        link: 'v-9',
        illustration: null,
        content_type: 2,
        content: '',
      },
    ])
  })
})
