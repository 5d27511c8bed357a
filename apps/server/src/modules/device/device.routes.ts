import { deviceApi } from '@aed/contracts/device'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './device.service.ts'

/** The route guards of this file's area. */
const READ = { permission: ['device', 'READ_ONLY'] } as const
const EDIT = { permission: ['device', 'EDIT'] } as const
const ALL = { permission: ['device', 'ALL'] } as const

const register = (x: { device_sn: string; register_code: string | null }) =>
  `${x.device_sn}${x.register_code ? `（${x.register_code}）` : ''}`
const updateWords: Record<number, string> = { 1: '常规变更', 2: '移机', 3: '换机' }

/** Registered devices and the factory list, within the member's subtree. */
export async function deviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['devices'])

  route(deviceApi.list, READ, ({ req, auth, query }) => service.listDevices(ctx, auth, query, langOf(req)))

  route(deviceApi.changeRecord, READ, ({ auth, query }) =>
    service.changeRecord(ctx, auth, query.register_code),
  )

  route(
    deviceApi.assign,
    {
      ...EDIT,
      oplog: {
        type: '分配设备',
        content: (_, d) => `分配设备到${d.agency_name}：${d.device_sn_list.join('、')}`,
      },
      done: 'ASSIGN_OK',
    },
    ({ auth, body }) => service.assignDevices(ctx, auth, body.agency_id, body.device_ids),
  )

  route(
    deviceApi.register,
    { ...EDIT, oplog: { type: '注册设备', content: (_, d) => `注册设备：${register(d)}` }, done: 'ADD_OK' },
    ({ req, auth, body }) => service.registerDevice(ctx, auth, body, langOf(req)),
  )

  route(deviceApi.detail, READ, ({ req, auth, params }) =>
    service.deviceDetail(ctx, auth, params.id, langOf(req)),
  )

  route(
    deviceApi.update,
    {
      ...EDIT,
      oplog: {
        type: '设备变更',
        content: ({ body }, d) => `${updateWords[body.update_type]}：${register(d)}`,
      },
      done: 'MODIFY_OK',
    },
    ({ req, auth, params, body }) => service.updateDevice(ctx, auth, params.id, body, langOf(req)),
  )

  route(
    deviceApi.remove,
    {
      ...ALL,
      oplog: {
        type: '删除设备',
        content: (_, d) => `删除${d.register_code ? '安装信息' : '出厂设备'}：${register(d)}`,
      },
      done: 'DELETE_OK',
    },
    ({ auth, params, query }) =>
      query.device_list_type === 2
        ? service.deleteFactoryDevice(ctx, auth, params.id)
        : service.uninstallDevice(ctx, auth, params.id),
  )

  route(
    deviceApi.credential,
    { systemSuper: true, oplog: { type: '查看设备密钥', content: (_, d) => `查看设备密钥：${d.sn}` } },
    ({ auth, params }) => service.credential(ctx, auth, params.id),
  )

  route(
    deviceApi.rotateCredential,
    { systemSuper: true, oplog: { type: '重置设备密钥', content: (_, d) => `重置设备密钥：${d.sn}` } },
    ({ auth, params }) => service.rotateCredential(ctx, auth, params.id),
  )
}
