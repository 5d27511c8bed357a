import type { MessageKey } from '@aed/contracts'
import { CABINET_IMPORT_MAX_BYTES, cabinetApi } from '@aed/contracts/cabinet'
import type { CommandRow } from '@aed/contracts/device-command'
import { COMMAND_LABELS } from '@aed/contracts/device-protocol'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { acceptUploads } from '../../lib/multipart.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './cabinet.service.ts'
import * as commands from './cabinet-command.service.ts'
import * as io from './cabinet-io.service.ts'

/** The route guards of this file's area. */
const READ = { permission: ['device', 'READ_ONLY'] } as const
const EDIT = { permission: ['device', 'EDIT'] } as const

const updateWords: Record<number, string> = { 1: '分配救护箱', 2: '绑定AED', 3: '解绑AED' }
const updateDone: Record<number, MessageKey> = {
  1: 'ASSIGN_OK',
  2: 'CABINET_BIND_OK',
  3: 'CABINET_UNBIND_OK',
}
/** A sent command and, for its log line only, the cabinet's serial (the answer is the command). */
type SentCommand = CommandRow & { cabinet_sn: string }

/** The import (multipart): its parser and 5 MB limit apply in this plugin only. */
async function cabinetImportRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  await acceptUploads(base, CABINET_IMPORT_MAX_BYTES, 'IMPORT_FILE_TOO_LARGE')
  const route = routes(base, ['cabinets'])
  route(
    cabinetApi.importCabinets,
    {
      ...EDIT,
      consumes: ['multipart/form-data'],
      oplog: {
        type: '导入救护箱',
        content: (_, d) => `导入救护箱到${d.agency_name}：${d.count}个（绑定AED ${d.bound}台）`,
      },
      done: 'IMPORT_OK',
    },
    ({ req, auth, body }) => io.importCabinets(ctx, auth, body, langOf(req)),
  )
}

/** Rescue cabinets of the subtree: registry, binding, records, credentials and commands. */
export async function cabinetRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  await app.register(cabinetImportRoutes, { ctx })
  const route = routes(app, ['cabinets'])

  route(cabinetApi.list, READ, ({ auth, query }) => service.listCabinets(ctx, auth, query))

  route(
    cabinetApi.create,
    {
      systemSuper: true,
      oplog: { type: '新建救护箱', content: (_, d) => `新建救护箱：${d.cabinet_sn}` },
      done: 'ADD_OK',
    },
    ({ auth, body }) => service.createCabinet(ctx, auth, body),
  )

  route(cabinetApi.uploadInfo, READ, () => io.uploadInfo(ctx))

  route(cabinetApi.bindRecord, READ, ({ auth, query }) =>
    service.bindRecords(ctx, auth, query.cabinet_id, query),
  )

  route(
    cabinetApi.assign,
    {
      ...EDIT,
      oplog: {
        type: '分配救护箱',
        content: (_, d) => `分配救护箱到${d.agency_name}：${d.cabinet_sn_list.join('、')}`,
      },
      done: 'ASSIGN_OK',
    },
    ({ auth, body }) => service.assignCabinets(ctx, auth, body.agency_id, body.cabinet_ids),
  )

  route(
    cabinetApi.batchDestroy,
    {
      ...EDIT,
      oplog: {
        type: '删除救护箱',
        content: (_, d) => `删除救护箱：${d.cabinet_sn_list.join('、')}`,
      },
      done: 'DELETE_OK',
    },
    ({ auth, body }) => service.destroyCabinets(ctx, auth, body.cabinet_sn_list),
  )

  route(cabinetApi.detail, READ, ({ auth, params }) => service.cabinetDetail(ctx, auth, params.id))

  route(
    cabinetApi.update,
    {
      ...EDIT,
      oplog: {
        type: '救护箱变更',
        content: ({ body }, d) => {
          if (body.update_type === 1) return `${updateWords[1]}：${d.cabinet_sn} → ${d.agency_name}`
          if (body.update_type === 2) return `${updateWords[2]}：${d.cabinet_sn} ← ${d.device_sn ?? ''}`
          return `${updateWords[3]}：${d.cabinet_sn}`
        },
      },
      // The success message follows the update_type (the answer itself does not say it).
      done: (_d, { body }) => updateDone[body.update_type] ?? 'MODIFY_OK',
    },
    ({ auth, params, body }) => service.updateCabinet(ctx, auth, params.id, body),
  )

  route(cabinetApi.records, READ, ({ auth, params, query }) =>
    service.cabinetRecords(ctx, auth, params.id, query),
  )

  route(
    cabinetApi.credential,
    { systemSuper: true, oplog: { type: '查看救护箱密钥', content: (_, d) => `查看救护箱密钥：${d.sn}` } },
    ({ auth, params }) => service.credential(ctx, auth, params.id),
  )

  route(
    cabinetApi.rotateCredential,
    { systemSuper: true, oplog: { type: '重置救护箱密钥', content: (_, d) => `重置救护箱密钥：${d.sn}` } },
    ({ auth, params }) => service.rotateCredential(ctx, auth, params.id),
  )

  route(
    cabinetApi.sendCommand,
    {
      ...EDIT,
      oplog: {
        type: '救护箱指令',
        content: (_, d: SentCommand) => `下发指令：${d.cabinet_sn}（${COMMAND_LABELS[d.name][0]}）`,
      },
      done: 'COMMAND_SENT',
    },
    ({ auth, params, body }) => commands.sendCabinetCommand(ctx, auth, params.id, body.name),
  )

  route(cabinetApi.commands, READ, ({ auth, params }) => commands.listCabinetCommands(ctx, auth, params.id))
}
