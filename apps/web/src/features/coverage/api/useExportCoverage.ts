import { coverageApi } from '@aed/contracts/coverage'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { RequestError } from '../../../lib/errors'
import type { CoverageQueryIn } from '../coverageQuery'

/** The same period and region with export_xls=true: the server answers the .xlsx file's URL. */
async function exportCoverage(query: CoverageQueryIn) {
  const data = await callApi(coverageApi.summary, { query: { ...query, export_xls: 'true' } })
  if (!('file_url' in data)) throw new RequestError('unknown', 'not an export')
  return data
}

/** Asks the server for the spreadsheet of the period's calls. */
export function useExportCoverage() {
  return useMutation({ mutationFn: exportCoverage })
}
