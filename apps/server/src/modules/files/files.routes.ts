import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'

/** Placeholder: being written. */
export async function filesRoutes(_app: FastifyInstance, _opts: { ctx: AppContext }) {}
