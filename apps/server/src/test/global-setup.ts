import type { TestProject } from 'vitest/node'
import { buildTemplates } from './templates.ts'

/** Builds the template databases once per run, before any test file copies them. */
export default async function setup(project: TestProject) {
  const env = { ...process.env, ...project.config.env }
  await buildTemplates(env.TEST_DB === 'postgres' ? 'postgres' : 'pglite', env.TEST_DATABASE_URL)
}
