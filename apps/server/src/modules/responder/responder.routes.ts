import { maskPhone } from '@aed/contracts'
import { dictLabel } from '@aed/contracts/constants'
import { RESPONDER_IMPORT_MAX_BYTES, type Responder, responderApi } from '@aed/contracts/responder'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { acceptUploads } from '../../lib/multipart.ts'
import { envelopeText } from '../../lib/raw-json.ts'
import { type AnswerOf, routes } from '../../plugins/route.ts'
import * as service from './responder.service.ts'
import * as io from './responder-io.service.ts'

/** The route guards of this file's area (aid_man: READ_ONLY reads, EDIT changes, ALL deletes). */
const READ = { permission: ['aid_man', 'READ_ONLY'] } as const
const EDIT = { permission: ['aid_man', 'EDIT'] } as const
const ALL = { permission: ['aid_man', 'ALL'] } as const

const described = (_input: unknown, r: Responder) =>
  `${r.name}（${maskPhone(r.phone)}，${r.agency_name}，${dictLabel('aid_aptitude', r.aid_aptitude)}）`

/** The import (multipart): its parser and size limit apply in this plugin only. */
async function responderImportRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  await acceptUploads(base, RESPONDER_IMPORT_MAX_BYTES, 'IMPORT_FILE_TOO_LARGE')
  const route = routes(base, ['responders'])
  route(
    responderApi.importResponders,
    {
      ...EDIT,
      consumes: ['multipart/form-data'],
      oplog: {
        type: '导入急救人员',
        content: (_, d) => `导入急救人员到${d.agency_name}：${d.count}名（专业${d.professional}名）`,
      },
      done: 'IMPORT_OK',
    },
    ({ req, auth, body }) => io.importResponders(ctx, auth, body, langOf(req)),
  )
}

/** First-aid responders (急救人员) of the subtree: register, certificates, pauses, history, map layer. */
export async function responderRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  await app.register(responderImportRoutes, { ctx })
  const route = routes(app, ['responders'])

  route(responderApi.list, READ, ({ req, auth, query }) =>
    service.listResponders(ctx, auth, query, langOf(req)),
  )

  route(responderApi.uploadInfo, READ, () => io.uploadInfo(ctx))

  route(responderApi.detail, READ, ({ auth, params }) => service.responderDetail(ctx, auth, params.id))

  route(responderApi.changes, READ, ({ req, auth, params, query }) =>
    service.listChanges(ctx, auth, params.id, query, langOf(req)),
  )

  route(
    responderApi.create,
    { ...EDIT, oplog: { type: '登记急救人员', content: described }, done: 'ADD_OK' },
    ({ auth, body }) => service.createResponder(ctx, auth, body),
  )

  route(
    responderApi.update,
    { ...EDIT, oplog: { type: '修改急救人员', content: described }, done: 'MODIFY_OK' },
    ({ auth, params, body }) => service.updateResponder(ctx, auth, params.id, body),
  )

  route(
    responderApi.renew,
    {
      ...EDIT,
      oplog: {
        type: '急救证书续期',
        content: (i, d) => `${described(i, d)} 证书有效期至${d.certificate_expire}`,
      },
      done: 'MODIFY_OK',
    },
    ({ auth, params, body }) => service.renewCertificate(ctx, auth, params.id, body),
  )

  route(
    responderApi.setAvailability,
    {
      ...EDIT,
      oplog: {
        type: '急救人员派单状态',
        content: (i, d) =>
          `${described(i, d)} ${d.paused ? `暂停派单：${d.pause_reason ?? '未填写原因'}` : '恢复派单'}`,
      },
      done: 'MODIFY_OK',
    },
    ({ auth, params, body }) => service.setAvailability(ctx, auth, params.id, body),
  )

  route(
    responderApi.remove,
    {
      ...ALL,
      oplog: { type: '删除急救人员', content: (_, d) => `删除急救人员：${d.name}（${d.agency_name}）` },
      done: 'DELETE_OK',
    },
    ({ auth, params }) => service.deleteResponder(ctx, auth, params.id),
  )

  // The dashboard's layer 5: who may read the register may see it on the map.
  route(responderApi.location, READ, async ({ reply, auth, query }) => {
    const json = await service.responderLocations(ctx, auth, query.address_code)
    // A province's 20,000 points as the database wrote them, spliced into the envelope rather
    // than validated and serialised again; responder.test.ts checks the shape.
    reply.type('application/json; charset=utf-8').serializer(envelopeText)
    return json as unknown as AnswerOf<typeof responderApi.location>
  })
}
