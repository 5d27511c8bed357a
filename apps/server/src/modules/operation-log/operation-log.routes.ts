import { Code, envelope, paged } from '@aed/contracts'
import {
  DEFAULT_EXPORT_DAYS,
  exportSchema,
  type OperationLog,
  operationLogQuery,
  operationLogSchema,
} from '@aed/contracts/operation-log'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { AppError, invalid } from '../../lib/errors.ts'
import { formatDate, formatDateTime } from '../../lib/time.ts'
import { exportXlsx } from '../../lib/xlsx.ts'
import { authOf } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import * as repo from './operation-log.repository.ts'

/** Rows one export may hold; a larger range must be narrowed. */
export const EXPORT_LIMIT = 100_000

const present = (r: repo.LogRow): OperationLog => ({
  id: r.id,
  operator: r.operator,
  operation_type: r.operation_type,
  content: r.content,
  agency_name: r.agency_name,
  create_time: formatDateTime(r.create_time),
})

/** The system operation log of the member's subtree: filter, page, export to .xlsx. */
export async function operationLogRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/v1/sys-mgmt/operation-log',
    {
      config: { permission: ['agency', 'READ_ONLY'] },
      schema: {
        tags: ['operation log'],
        summary: 'Operation log (default range: the last 180 days); export_xls=true answers data.file_url',
        querystring: operationLogQuery,
        response: { 200: envelope(z.union([paged(operationLogSchema), exportSchema])) },
      },
    },
    async (req) => {
      const auth = authOf(req)
      const q = req.query
      const filter: repo.LogFilter = {
        operator: q.operator,
        content: q.content,
        order_by: q.order_by,
        start_time: q.start_time ?? formatDate(new Date(Date.now() - DEFAULT_EXPORT_DAYS * 86_400_000)),
        end_time: q.end_time ?? formatDate(new Date()),
      }
      if (filter.start_time > filter.end_time) throw invalid('DATE_ORDER')
      if (!q.export_xls) {
        const [count, rows] = await Promise.all([
          repo.countLogs(ctx.db, auth, filter),
          repo.listLogs(ctx.db, auth, filter, q.page_size, (q.page - 1) * q.page_size),
        ])
        return ok(req, { count, resource: rows.map(present) })
      }
      const rows = await repo.listLogs(ctx.db, auth, filter, EXPORT_LIMIT + 1)
      if (rows.length > EXPORT_LIMIT) throw new AppError(Code.INVALID, 'EXPORT_TOO_LARGE')
      const file_url = await exportXlsx(
        ctx,
        `系统操作日志_${filter.start_time}_${filter.end_time}.xlsx`,
        '系统操作日志',
        [
          { header: '操作人', width: 16, value: (r) => r.operator },
          { header: '操作类型', width: 16, value: (r) => r.operation_type },
          { header: '操作内容', width: 60, value: (r) => r.content },
          { header: '所属机构', width: 24, value: (r) => r.agency_name },
          { header: '操作时间', width: 20, value: (r) => formatDateTime(r.create_time) },
        ],
        rows,
      )
      return ok(req, { file_url, count: rows.length })
    },
  )
}
