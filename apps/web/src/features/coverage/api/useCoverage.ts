import { coverageApi } from '@aed/contracts/coverage'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { RequestError } from '../../../lib/errors'
import type { CoverageQueryIn } from '../coverageQuery'
import { coverageKeys } from './keys'

/** The figures of a period and region (the last ones stay shown while the next load). */
export function useCoverage(query: CoverageQueryIn) {
  return useQuery({
    queryKey: coverageKeys.summary(query),
    queryFn: async ({ signal }) => {
      const data = await callApi(coverageApi.summary, { query, signal })
      if (!('totals' in data)) throw new RequestError('unknown', 'not the figures')
      return data
    },
    placeholderData: keepPreviousData,
  })
}
