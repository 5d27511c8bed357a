import type { TestProject } from 'vitest/node'
import { escalateLate, startServer } from './support/server.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
  }
}

/** Starts the real server (built console, fresh PGlite folder, demo seed) for the whole e2e run. */
export default async function setup(project: TestProject) {
  // The webhook journey's receiver listens on 127.0.0.1, which push URLs may not name otherwise.
  const server = await startServer({ WEBHOOK_ALLOW_PRIVATE: '1' })
  try {
    await escalateLate(server.baseURL)
  } catch (e) {
    await server.stop()
    throw e
  }
  project.provide('baseURL', server.baseURL)
  return () => server.stop()
}
