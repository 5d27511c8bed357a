import { deviceApi } from '@aed/contracts/device'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { RequestError } from '../../../lib/errors'
import type { DeviceListQueryIn } from './deviceQuery'

/** The list's filters with export_xls=true: the server writes 设备列表.xlsx and answers its URL. */
async function exportDevices(query: DeviceListQueryIn) {
  const data = await callApi(deviceApi.list, { query: { ...query, export_xls: 'true' } })
  if (!('file_url' in data)) throw new RequestError('unknown', 'not an export')
  return data
}

/** Asks the server for an .xlsx of every matching registered device. */
export function useExportDevices() {
  return useMutation({ mutationFn: exportDevices })
}
