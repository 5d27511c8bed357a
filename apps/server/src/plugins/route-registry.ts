import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** One registered route: a method and the path as declared (`:name` parameters). */
export type RegisteredRoute = { method: string; url: string }

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app, in registration order (HEAD left out). */
    routeList: RegisteredRoute[]
  }
}

/**
 * Records every route as it is registered, so checks that must cover each endpoint (the tenancy
 * matrix) take the list from the app instead of a hand-kept copy. Registered first in buildApp.
 */
export const routeRegistryPlugin = fp(async (app: FastifyInstance) => {
  const list: RegisteredRoute[] = []
  app.decorate('routeList', list)
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    // HEAD answers as GET does (Fastify adds one for every GET route).
    for (const method of methods) if (method !== 'HEAD') list.push({ method, url: route.url })
  })
})
