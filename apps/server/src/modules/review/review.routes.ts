import { UPLOAD_MAX_BYTES } from '@aed/contracts/files'
import { OPEN_API_SERVICE_OF, openApi } from '@aed/contracts/open-api'
import { reviewApi } from '@aed/contracts/review'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.ts'
import { invalid } from '../../lib/errors.ts'
import { langOf } from '../../lib/lang.ts'
import { integratorOf } from '../../plugins/auth/integrator.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './review.service.ts'

/**
 * The route guards of 公众审核: members of the system organisation only, by the level of the
 * `agency` area (system management): READ_ONLY reads, EDIT decides, edits and saves, ALL deletes.
 */
const READ = { systemOrg: true, permission: ['agency', 'READ_ONLY'] } as const
const EDIT = { systemOrg: true, permission: ['agency', 'EDIT'] } as const
const ALL = { systemOrg: true, permission: ['agency', 'ALL'] } as const

const AUDIT_LOG = { 2: '审核通过', 0: '驳回' } as const

/** A 20M image and the form around it. */
const UPLOAD_BODY_LIMIT = UPLOAD_MAX_BYTES + 64 * 1024

/** The image upload of a submission (signed multipart): its parser and 20M limit in this plugin only. */
async function openUploadRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.addHook('onRoute', (r) => {
    if (r.url.startsWith('/open-api')) r.schema = { ...r.schema, hide: true }
  })
  // The integrator guard has read the raw body to check its signature and hands the parser that
  // copy; @fastify/multipart would read the request's own stream, already spent. So the form is
  // parsed here from the bytes that were signed.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT },
    async (req: FastifyRequest, body: Buffer) => {
      let form: FormData
      try {
        form = await new Response(new Uint8Array(body), {
          headers: { 'content-type': String(req.headers['content-type']) },
        }).formData()
      } catch {
        throw invalid('INVALID_INPUT')
      }
      const file = form.get('file')
      if (!(file instanceof File)) return {}
      if (file.size > UPLOAD_MAX_BYTES) throw invalid('REVIEW_IMAGE_TOO_LARGE')
      return {
        file: { filename: file.name, mimetype: file.type, data: new Uint8Array(await file.arrayBuffer()) },
      }
    },
  )
  routes(app, ['open api'])(
    openApi.fileUpload,
    {
      openApiService: OPEN_API_SERVICE_OF.fileUpload,
      oplog: false,
      consumes: ['multipart/form-data'],
      // The signature covers the raw body: the guard reads it whole before the parser does.
      bodyLimit: UPLOAD_BODY_LIMIT,
    },
    ({ body }) => service.uploadImage(ctx, body.file),
  )
}

/** The public's submissions (open API, mini_program): signed, not in /api/docs. */
async function openReviewRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.addHook('onRoute', (r) => {
    if (r.url.startsWith('/open-api')) r.schema = { ...r.schema, hide: true }
  })
  const route = routes(app, ['open api'])
  route(
    openApi.volunteer,
    { openApiService: OPEN_API_SERVICE_OF.volunteer, oplog: false, done: 'SUBMIT_OK' },
    ({ req, body }) => service.submitVolunteer(ctx, integratorOf(req), body),
  )
  route(
    openApi.thirdPartyAed,
    { openApiService: OPEN_API_SERVICE_OF.thirdPartyAed, oplog: false, done: 'SUBMIT_OK' },
    ({ req, body }) => service.submitThirdParty(ctx, integratorOf(req), body),
  )
}

/** 公众审核 (spec 2.6-2.8): volunteers, third-party AEDs, 后台配置; and the dashboard's third-party layer. */
export async function reviewRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  await app.register(openUploadRoutes, { ctx })
  await app.register(openReviewRoutes, { ctx })
  const route = routes(app, ['review'])

  route(reviewApi.volunteers, READ, ({ req, auth, query }) =>
    service.listVolunteers(ctx, auth, query, langOf(req)),
  )
  route(
    reviewApi.auditVolunteer,
    {
      ...EDIT,
      oplog: {
        type: '审核公共志愿者',
        content: ({ body }, d) =>
          `${AUDIT_LOG[body.audit_status]}公共志愿者：${d.submitter_name}（${d.guard_area}）${body.rejected_reason ? `，原因：${body.rejected_reason}` : ''}`,
      },
      done: (_, { body }) => (body.audit_status === 2 ? 'AUDIT_OK' : 'SUBMIT_OK'),
    },
    ({ auth, params, body }) => service.auditVolunteer(ctx, auth, params.id, body),
  )
  route(
    reviewApi.deleteVolunteer,
    {
      ...ALL,
      oplog: { type: '删除公共志愿者', content: (_, d) => `删除公共志愿者：${d.name}` },
      done: 'DELETE_OK',
    },
    ({ auth, params }) => service.deleteVolunteer(ctx, auth, params.id),
  )

  route(reviewApi.thirdPartyAeds, READ, ({ req, auth, query }) =>
    service.listThirdParty(ctx, auth, query, langOf(req)),
  )
  route(
    reviewApi.updateThirdPartyAed,
    {
      ...EDIT,
      oplog: {
        type: '审核第三方AED',
        content: ({ body }, d) =>
          body.update_type === 2
            ? `修改第三方AED：${d.brand}（${d.location}）`
            : `${AUDIT_LOG[body.audit_status]}第三方AED：${d.brand}（${d.location}）${body.rejected_reason ? `，原因：${body.rejected_reason}` : ''}`,
      },
      done: (_, { body }) =>
        body.update_type === 2 ? 'MODIFY_OK' : body.audit_status === 2 ? 'AUDIT_OK' : 'SUBMIT_OK',
    },
    ({ auth, params, body }) => service.updateThirdParty(ctx, auth, params.id, body),
  )
  route(
    reviewApi.deleteThirdPartyAed,
    {
      ...ALL,
      oplog: { type: '删除第三方AED', content: (_, d) => `删除第三方AED：${d.name}` },
      done: 'DELETE_OK',
    },
    ({ auth, params }) => service.deleteThirdParty(ctx, auth, params.id),
  )

  route(reviewApi.sysConfig, READ, ({ auth }) => service.sysConfig(ctx, auth))
  route(
    reviewApi.saveSysConfig,
    {
      ...EDIT,
      oplog: {
        type: '后台配置',
        content: ({ body }) =>
          `呼救事件通知公共志愿者：${body.call_event_notify_aid_volunteer ? '是' : '否'}；小程序显示第三方AED：${body.xcx_display_third_party_aed ? '是' : '否'}`,
      },
      done: 'SAVE_OK',
    },
    ({ auth, body }) => service.saveSysConfig(ctx, auth, body),
  )

  // Approved third-party AEDs are public records (the mini-program shows them to anyone): every
  // member may see them on the dashboard; who submitted them stays with the reviewers.
  route(reviewApi.thirdPartyLayer, { permission: ['device', 'READ_ONLY'] }, ({ query }) =>
    service.thirdPartyLayer(ctx, query.address_code),
  )
}
