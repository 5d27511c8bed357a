import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'

/** Placeholder: being written. */
export async function mapRoutes(_app: FastifyInstance, _opts: { ctx: AppContext }) {}
