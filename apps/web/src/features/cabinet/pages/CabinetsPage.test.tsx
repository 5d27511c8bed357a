import { type Cabinet, type CabinetListCan, cabinetApi } from '@aed/contracts/cabinet'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { sessionStore } from '../../../lib/session'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { pageRoutes } from '../../../test/pageRoutes'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { CabinetsPage } from './CabinetsPage'

function cabinet(patch: Partial<Cabinet> = {}): Cabinet {
  return {
    id: 31,
    cabinet_sn: 'CB26100053',
    device_sn: 'M642603738',
    device_model: 'D100',
    device_id: 7,
    bind_device: 1,
    door_status: 1,
    battery_power: 86,
    fw_version: 'C1.1.0',
    agency_id: 4,
    agency_name: '杭州市西湖区急救中心',
    location: '浙江省杭州市西湖区黄龙路1号 黄龙体育中心',
    lat: 30.2676,
    lon: 120.1345,
    aed_present: true,
    data_upload_time: '2026-11-22 10:40:00',
    online: true,
    create_time: '2026-10-01 09:00:00',
    can: { bind: true, assign: true, delete: true, command: true, credential: false },
    ...patch,
  }
}

const rows = [
  cabinet(),
  cabinet({
    id: 32,
    cabinet_sn: 'CB26100106',
    device_sn: null,
    device_model: null,
    device_id: null,
    bind_device: 0,
    door_status: 0,
    aed_present: false,
  }),
]
/** The list's `can` for the member `show` signs in, as the server computes it. */
const listCan = {
  systemSuper: { import: true, assign: false, delete: true },
  ordinarySuper: { import: false, assign: true, delete: true },
  agentEditor: { import: true, assign: false, delete: false },
  readOnly: { import: false, assign: false, delete: false },
} satisfies Record<string, CabinetListCan>
let answeredCan: CabinetListCan = listCan.readOnly

const calls: Record<'list' | 'update' | 'assign' | 'remove' | 'records' | 'binds' | 'command', MockCall[]> = {
  list: [],
  update: [],
  assign: [],
  remove: [],
  records: [],
  binds: [],
  command: [],
}

function api() {
  return mockApi([
    ...pageRoutes(),
    recordOn(cabinetApi.list, calls.list, () => ({
      code: 0,
      data: { count: rows.length, resource: rows, can: answeredCan },
    })),
    recordOn(cabinetApi.update, calls.update, (call) => {
      const bind = (call.body as { update_type: number }).update_type === 2
      return {
        code: 0,
        msg: bind ? '绑定成功！' : '解绑成功！',
        data: {
          ...rows[0],
          altitude: null,
          aed_info: null,
          operator_info: { agency_name: '杭州市西湖区急救中心', operator: '赵敏' },
        },
      }
    }),
    recordOn(cabinetApi.assign, calls.assign, () => {
      return {
        code: 0,
        msg: '分配成功！',
        data: { agency_id: 4, agency_name: '杭州市西湖区急救中心', cabinet_sn_list: ['CB26100106'] },
      }
    }),
    recordOn(cabinetApi.batchDestroy, calls.remove, () => ({
      code: 0,
      msg: '删除成功！',
      data: { cabinet_sn_list: ['CB26100106'] },
    })),
    recordOn(cabinetApi.records, calls.records, () => {
      return {
        code: 0,
        data: {
          count: 1,
          resource: [
            {
              id: 901,
              update_time: '2026-11-22 10:40:00',
              upload_data_type: 'cabinet_status',
              device_sn: 'M642603738',
              device_model: 'D100',
              door_status: 0,
              battery_power: 86,
              fw_version: 'C1.1.0',
              location: '黄龙体育中心',
              altitude: 12,
              lat: 30.2676,
              lon: 120.1345,
              aed_present: true,
            },
          ],
        },
      }
    }),
    on(cabinetApi.commands, () => ({
      code: 0,
      data: [
        {
          cmd_id: 'c-1',
          name: 'siren' as const,
          state: 'done' as const,
          creator_name: '系统超级管理员',
          create_time: '2026-11-22 10:41:00',
          expires_at: '2026-11-22 11:41:00',
          sent_at: '2026-11-22 10:41:01',
          ack_time: '2026-11-22 10:41:03',
          error: null,
        },
      ],
    })),
    recordOn(cabinetApi.sendCommand, calls.command, () => {
      return {
        code: 0,
        msg: '指令已创建，设备连接后执行',
        data: {
          cmd_id: 'c-2',
          name: 'unlock' as const,
          state: 'pending' as const,
          creator_name: '系统超级管理员',
          create_time: '2026-11-22 10:42:00',
          expires_at: '2026-11-22 11:42:00',
          sent_at: null,
          ack_time: null,
          error: null,
        },
      }
    }),
    recordOn(cabinetApi.bindRecord, calls.binds, () => {
      return {
        code: 0,
        data: {
          count: 1,
          resource: [
            {
              id: 77,
              operate_time: '2026-10-02 09:00:00',
              update_type: 2,
              operator: '西湖急救中心管理员',
              device_sn: 'M642603738',
              device_model: 'D100',
              agency_name: '杭州市西湖区急救中心',
            },
          ],
        },
      }
    }),
  ])
}

freshConsole({
  reset: () => {
    for (const list of Object.values(calls)) list.length = 0
  },
})

const rowOf = (id: number) => screen.getByTestId(`row-${id}`)
const toolbar = () => ({
  remove: screen.queryByTestId('cabinet-delete'),
  assign: screen.queryByTestId('cabinet-assign'),
  import: screen.queryByTestId('cabinet-import-button'),
})

async function show(member: Parameters<typeof userInfo>[0], can: CabinetListCan) {
  answeredCan = can
  api()
  sessionStore.signIn(userInfo(member))
  const view = renderWithProviders(<CabinetsPage />)
  await screen.findByText('CB26100053')
  return view
}

describe('CabinetsPage', () => {
  it('lists the spec’s columns with the door as a switch that shows the state and takes no click', async () => {
    await show({ role_type: 0, agency_type: 0, agency_id: 1 }, listCan.systemSuper)
    for (const title of [
      '救护箱编号',
      '绑定AED',
      'AED型号',
      '箱门状态',
      '电量',
      '固件版本',
      '所属机构',
      '最新位置',
      '时间',
    ])
      expect(screen.getAllByText(title).length).toBeGreaterThan(0)
    const open = screen.getByTestId('door-CB26100053')
    const shut = screen.getByTestId('door-CB26100106')
    expect(open).toHaveAttribute('aria-checked', 'true')
    expect(shut).toHaveAttribute('aria-checked', 'false')
    expect(open).toHaveAttribute('tabindex', '-1')
    expect(open).toHaveAttribute('aria-readonly', 'true')
    fireEvent.click(open)
    fireEvent.click(shut)
    expect(open).toHaveAttribute('aria-checked', 'true')
    expect(shut).toHaveAttribute('aria-checked', 'false')
    expect(calls.update).toHaveLength(0)
    expect(within(rowOf(31)).getByText('M642603738')).toBeInTheDocument()
  })

  it('forwards the cabinet number filter to the list call', async () => {
    await show({ role_type: 0, agency_type: 0, agency_id: 1 }, listCan.systemSuper)
    const user = userEvent.setup()
    await user.type(screen.getByTestId('filter-cabinet_sn'), 'CB26')
    await user.click(screen.getByTestId('filter-search'))
    await waitFor(() => expect(calls.list.at(-1)?.query.get('cabinet_sn')).toBe('CB26'))
  })

  it('shows the toolbar by the list’s can (the server’s rules: role and organisation type)', async () => {
    // A system super administrator: delete and import (with the organisation picker), no assign.
    let view = await show({ role_type: 0, agency_type: 0, agency_id: 1 }, listCan.systemSuper)
    expect(toolbar().remove).not.toBeNull()
    expect(toolbar().import).not.toBeNull()
    expect(toolbar().assign).toBeNull()
    view.unmount()
    // A super administrator of an ordinary organisation: delete and assign, no import.
    view = await show({ role_type: 0, agency_type: 2, agency_id: 4 }, listCan.ordinarySuper)
    expect(toolbar().remove).not.toBeNull()
    expect(toolbar().assign).not.toBeNull()
    expect(toolbar().import).toBeNull()
    view.unmount()
    // An administrator of a general agent who may edit: import only.
    view = await show({ role_type: 1, agency_type: 1, permissions: { device: 'EDIT' } }, listCan.agentEditor)
    expect(toolbar()).toEqual({ remove: null, assign: null, import: expect.anything() })
    view.unmount()
    // Read-only: nothing.
    await show({ role_type: 2, agency_type: 0, permissions: { device: 'READ_ONLY' } }, listCan.readOnly)
    expect(toolbar()).toEqual({ remove: null, assign: null, import: null })
    expect(within(rowOf(31)).queryAllByRole('checkbox')).toHaveLength(0)
  })

  it('follows the list’s can, not the member’s role', async () => {
    let view = await show({ role_type: 0, agency_type: 0, agency_id: 1 }, listCan.readOnly)
    expect(toolbar()).toEqual({ remove: null, assign: null, import: null })
    expect(within(rowOf(31)).queryAllByRole('checkbox')).toHaveLength(0)
    view.unmount()
    view = await show(
      { role_type: 2, agency_type: 2, permissions: { device: 'READ_ONLY' } },
      listCan.ordinarySuper,
    )
    expect(toolbar()).toEqual({ remove: expect.anything(), assign: expect.anything(), import: null })
    expect(within(rowOf(31)).queryAllByRole('checkbox')).toHaveLength(1)
  })

  it('binds an AED with the model derived as the serial is typed, and shows the server’s message', async () => {
    await show({ role_type: 0, agency_type: 2, agency_id: 4 }, listCan.ordinarySuper)
    const user = userEvent.setup()
    await user.click(screen.getByTestId('cabinet-bind-CB26100106'))
    const dialog = await screen.findByTestId('bind-modal')
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('请输入绑定AED')).toBeInTheDocument()
    const model = within(dialog).getByTestId('bind-model')
    await user.type(within(dialog).getByTestId('bind-sn'), 'M7')
    expect(model).toHaveValue('')
    await user.type(within(dialog).getByTestId('bind-sn'), '1')
    expect(model).toHaveValue('B100A')
    await user.clear(within(dialog).getByTestId('bind-sn'))
    await user.type(within(dialog).getByTestId('bind-sn'), 'M642609999')
    expect(model).toHaveValue('D100')
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    await waitFor(() => expect(calls.update).toHaveLength(1))
    expect(calls.update[0].params).toEqual({ id: '32' })
    expect(calls.update[0].body).toEqual({
      update_type: 2,
      cabinet_sn: 'CB26100106',
      device_sn: 'M642609999',
    })
    expect(await screen.findByText('绑定成功！')).toBeInTheDocument()
  })

  it('unbinds a bound cabinet after showing its AED', async () => {
    await show({ role_type: 0, agency_type: 2, agency_id: 4 }, listCan.ordinarySuper)
    const user = userEvent.setup()
    expect(screen.getByTestId('cabinet-bind-CB26100053')).toHaveTextContent('解绑')
    await user.click(screen.getByTestId('cabinet-bind-CB26100053'))
    const dialog = await screen.findByTestId('bind-modal')
    expect(within(dialog).getByText('D100')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: /解\s?绑/ }))
    await waitFor(() => expect(calls.update).toHaveLength(1))
    expect(calls.update[0].body).toEqual({ update_type: 3, cabinet_sn: 'CB26100053' })
    expect(await screen.findByText('解绑成功！')).toBeInTheDocument()
  })

  it('hides bind where the row says so', async () => {
    rows[1] = { ...rows[1], can: { ...rows[1].can, bind: false } }
    try {
      await show({ role_type: 2, agency_type: 2, permissions: { device: 'READ_ONLY' } }, listCan.readOnly)
      expect(screen.queryByTestId('cabinet-bind-CB26100106')).toBeNull()
      expect(screen.getByTestId('cabinet-records-CB26100106')).toBeInTheDocument()
    } finally {
      rows[1] = { ...rows[1], can: { ...rows[1].can, bind: true } }
    }
  })

  it('deletes: asks for a selection, refuses bound cabinets, then deletes all chosen in one call', async () => {
    await show({ role_type: 0, agency_type: 0, agency_id: 1 }, listCan.systemSuper)
    const user = userEvent.setup()
    await user.click(screen.getByTestId('cabinet-delete'))
    expect(await screen.findByText('请选择需要删除的救护箱！')).toBeInTheDocument()
    await user.click(within(rowOf(31)).getByRole('checkbox'))
    await user.click(screen.getByTestId('cabinet-delete'))
    expect(await screen.findByText('存在救护箱已绑定AED，解绑后删除！')).toBeInTheDocument()
    await user.click(within(rowOf(31)).getByRole('checkbox'))
    await user.click(within(rowOf(32)).getByRole('checkbox'))
    await user.click(screen.getByTestId('cabinet-delete'))
    await user.click(await screen.findByTestId('cabinet-delete-ok'))
    await waitFor(() => expect(calls.remove).toHaveLength(1))
    expect(calls.remove[0].body).toEqual({ cabinet_sn_list: ['CB26100106'] })
    expect(await screen.findByText('删除成功！')).toBeInTheDocument()
  })

  it('assigns the chosen cabinets to an organisation', async () => {
    await show({ role_type: 0, agency_type: 2, agency_id: 4 }, listCan.ordinarySuper)
    const user = userEvent.setup()
    await user.click(screen.getByTestId('cabinet-assign'))
    expect(await screen.findByText('请选择需要分配的设备！')).toBeInTheDocument()
    await user.click(within(rowOf(32)).getByRole('checkbox'))
    await user.click(screen.getByTestId('cabinet-assign'))
    const dialog = await screen.findByTestId('cabinet-assign-modal')
    expect(within(dialog).getByText('已选择 1 个救护箱')).toBeInTheDocument()
    await user.click(within(dialog).getByTestId('cabinet-assign-agency'))
    const options = await screen.findAllByTitle('杭州市西湖区急救中心')
    await user.click(options.find((el) => el.closest('.ant-select-tree')) ?? options[0])
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    await waitFor(() => expect(calls.assign).toHaveLength(1))
    expect(calls.assign[0].body).toEqual({ agency_id: 4, cabinet_ids: [32] })
    expect(await screen.findByText('分配成功！')).toBeInTheDocument()
  })

  it('opens the self-check records and the full-screen bind history of a cabinet', async () => {
    await show({ role_type: 2, agency_type: 2, permissions: { device: 'READ_ONLY' } }, listCan.readOnly)
    const user = userEvent.setup()
    await user.click(screen.getByTestId('cabinet-records-CB26100053'))
    const drawer = await screen.findByTestId('cabinet-records')
    expect(await within(drawer).findByText('状态自检')).toBeInTheDocument()
    expect(calls.records[0].params).toEqual({ id: '31' })
    expect(calls.records[0].query.get('page')).toBe('1')
    await user.click(screen.getByTestId('cabinet-binds-CB26100053'))
    const history = await screen.findByTestId('cabinet-binds')
    expect(await within(history).findByText('西湖急救中心管理员')).toBeInTheDocument()
    expect(within(history).getByText('绑定AED')).toBeInTheDocument()
    expect(calls.binds[0].query.get('cabinet_id')).toBe('31')
  })

  it('sends unlock and siren where the row allows commands, and shows every command with its answer', async () => {
    await show({ role_type: 0, agency_type: 0, agency_id: 1 }, listCan.systemSuper)
    const user = userEvent.setup()
    await user.click(screen.getByTestId('cabinet-commands-CB26100053'))
    const drawer = await screen.findByTestId('cabinet-commands')
    expect(await within(drawer).findByText('鸣笛', { selector: 'td *, td' })).toBeInTheDocument()
    await user.click(within(drawer).getByTestId('command-unlock'))
    await waitFor(() => expect(calls.command).toHaveLength(1))
    expect(calls.command[0].params).toEqual({ id: '31' })
    expect(calls.command[0].body).toEqual({ name: 'unlock' })
  })

  it('shows the commands but no buttons where the row does not allow them', async () => {
    rows[0] = cabinet({
      can: { bind: false, assign: false, delete: false, command: false, credential: false },
    })
    try {
      await show({ role_type: 2, agency_type: 2, permissions: { device: 'READ_ONLY' } }, listCan.readOnly)
      const user = userEvent.setup()
      await user.click(screen.getByTestId('cabinet-commands-CB26100053'))
      const drawer = await screen.findByTestId('cabinet-commands')
      await within(drawer).findByTestId('device-commands')
      expect(within(drawer).queryByTestId('command-unlock')).toBeNull()
    } finally {
      rows[0] = cabinet()
    }
  })
})
