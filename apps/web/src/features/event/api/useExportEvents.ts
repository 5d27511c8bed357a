import type { EventKind } from '@aed/contracts/event'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { RequestError } from '../../../lib/errors'
import { type EventQueryIn, listEndpoint } from './eventQuery'

/** The tab's filters with export_xls=true: the server writes the page's .xlsx and answers its URL. */
async function exportEvents({ kind, query }: { kind: EventKind; query: EventQueryIn }) {
  const data = await callApi(listEndpoint(kind), { query: { ...query, export_xls: 'true' } })
  if (!('file_url' in data)) throw new RequestError('unknown', 'not an export')
  return data
}

/** Asks the server for an .xlsx of every matching event (the last 180 days unless dates are chosen). */
export function useExportEvents() {
  return useMutation({ mutationFn: exportEvents })
}
