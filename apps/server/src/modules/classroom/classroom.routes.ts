import { type ClassroomDetail, classroomApi } from '@aed/contracts/classroom'
import { dictLabel } from '@aed/contracts/constants'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './classroom.service.ts'

/** The route guards of this file's area. */
const READ = { permission: ['agency', 'READ_ONLY'] } as const
const EDIT = { permission: ['agency', 'EDIT'] } as const
const ALL = { permission: ['agency', 'ALL'] } as const

const describeItem = (c: Pick<ClassroomDetail, 'id' | 'title' | 'category'>) =>
  `${dictLabel('classroom_category', c.category)}《${c.title}》（ID ${c.id}）`

/** The first-aid classroom of the member's subtree: system management ('agency') permissions. */
export async function classroomRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['first-aid classroom'])

  route(classroomApi.list, READ, ({ auth, query }) => service.list(ctx, auth, query))

  route(
    classroomApi.create,
    {
      ...EDIT,
      oplog: { type: '新增急救课堂', content: (_, data) => `新增${describeItem(data)}` },
      done: 'ADD_OK',
    },
    ({ auth, body }) => service.create(ctx, auth, body),
  )

  route(classroomApi.detail, READ, ({ auth, params }) => service.detail(ctx, auth, params.id))

  route(
    classroomApi.update,
    {
      ...EDIT,
      oplog: { type: '修改急救课堂', content: (_, data) => `修改${describeItem(data)}` },
      done: 'MODIFY_OK',
    },
    ({ auth, params, body }) => service.update(ctx, auth, params.id, body),
  )

  route(
    classroomApi.remove,
    {
      ...ALL,
      oplog: {
        type: '删除急救课堂',
        content: (_, d) => `删除急救课堂《${d.title}》（ID ${d.id}）`,
      },
      done: 'DELETE_OK',
    },
    ({ auth, params }) => service.remove(ctx, auth, params.id),
  )
}
