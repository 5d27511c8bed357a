import type { QueryIn } from '@aed/contracts'
import { deviceIoApi } from '@aed/contracts/device-io'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'

export type DataExportQuery = QueryIn<typeof deviceIoApi.dataExport>

/** The device data export (list, inspections, self-checks, rescues) of a date range: the file's URL. */
export function useDataExport() {
  return useMutation({ mutationFn: (query: DataExportQuery) => callApi(deviceIoApi.dataExport, { query }) })
}
