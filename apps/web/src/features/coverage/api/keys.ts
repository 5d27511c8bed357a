import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the coverage page: its figures by period and region. */
export const coverageKeys = {
  ...resourceKeys('coverage'),
  summary: (query: object) => ['coverage', 'summary', query] as const,
}
