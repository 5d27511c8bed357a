import { envelope, paged } from '@aed/contracts'
import {
  type ClassroomDetail,
  classroomDetailSchema,
  classroomForm,
  classroomIdParams,
  classroomItemSchema,
  classroomListQuery,
} from '@aed/contracts/classroom'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { authOf } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import * as repo from './classroom.repository.ts'
import * as service from './classroom.service.ts'

const tags = ['first-aid classroom']
const categoryNames: Record<number, string> = { 1: '操作视频', 2: '急救知识库', 3: '新闻资讯' }
const describeItem = (d: unknown) => {
  const c = d as Pick<ClassroomDetail, 'id' | 'title' | 'category'>
  return `${categoryNames[c.category]}《${c.title}》（ID ${c.id}）`
}

/** The first-aid classroom of the member's subtree: system management ('agency') permissions. */
export async function classroomRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/v1/aid-classroom/',
    {
      config: { permission: ['agency', 'READ_ONLY'] },
      schema: {
        tags,
        summary: 'Classroom items of the member’s subtree, newest first',
        querystring: classroomListQuery,
        response: { 200: envelope(paged(classroomItemSchema)) },
      },
    },
    async (req) => {
      const { count, rows } = await repo.listPage(ctx.db, authOf(req), req.query)
      return ok(req, { count, resource: rows.map(service.presentClassroom) })
    },
  )

  app.post(
    '/api/v1/aid-classroom/',
    {
      config: {
        permission: ['agency', 'EDIT'],
        oplog: { type: '新增急救课堂', content: (_req, data) => `新增${describeItem(data)}` },
      },
      schema: {
        tags,
        summary: 'Create an item owned by the member’s organisation',
        body: classroomForm,
        response: { 200: envelope(classroomDetailSchema) },
      },
    },
    async (req) => ok(req, await service.create(ctx, authOf(req), req.body), 'ADD_OK'),
  )

  app.get(
    '/api/v1/aid-classroom/:id',
    {
      config: { permission: ['agency', 'READ_ONLY'] },
      schema: {
        tags,
        summary: 'One item, with its rich text',
        params: classroomIdParams,
        response: { 200: envelope(classroomDetailSchema) },
      },
    },
    async (req) => ok(req, await service.detail(ctx, authOf(req), req.params.id)),
  )

  app.put(
    '/api/v1/aid-classroom/:id',
    {
      config: {
        permission: ['agency', 'EDIT'],
        oplog: { type: '修改急救课堂', content: (_req, data) => `修改${describeItem(data)}` },
      },
      schema: {
        tags,
        summary: 'Modify an item of the member’s subtree',
        params: classroomIdParams,
        body: classroomForm,
        response: { 200: envelope(classroomDetailSchema) },
      },
    },
    async (req) => ok(req, await service.update(ctx, authOf(req), req.params.id, req.body), 'MODIFY_OK'),
  )

  app.delete(
    '/api/v1/aid-classroom/:id',
    {
      config: {
        permission: ['agency', 'ALL'],
        oplog: {
          type: '删除急救课堂',
          content: (_req, data) => {
            const d = data as { id: number; title: string }
            return `删除急救课堂《${d.title}》（ID ${d.id}）`
          },
        },
      },
      schema: {
        tags,
        summary: 'Delete an item of the member’s subtree',
        params: classroomIdParams,
        response: { 200: envelope(z.object({ id: z.number().int(), title: z.string() })) },
      },
    },
    async (req) => ok(req, await service.remove(ctx, authOf(req), req.params.id), 'DELETE_OK'),
  )
}
