import type { Lang } from '@aed/contracts'
import type { FastifyRequest } from 'fastify'

/** The language of a request: en-US when the client asks for English, else zh-CN. */
export function langOf(req: Pick<FastifyRequest, 'headers'>): Lang {
  const header = req.headers['accept-language']
  return typeof header === 'string' && /^en\b/i.test(header.trim()) ? 'en-US' : 'zh-CN'
}
