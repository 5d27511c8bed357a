import { type Device, deviceApi } from '@aed/contracts/device'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { deviceQuery } from './deviceQuery'
import { deviceKeys } from './keys'

const isDevice = (row: object): row is Device => 'register_code' in row

/** A page of registered devices with every filter of the device list, and the toolbar's `can`. */
export function useDeviceList(request: ListRequest) {
  return useListQuery(request, deviceKeys.list, async (params, signal) => {
    const query = {
      page: params.page,
      page_size: params.page_size,
      order_by: params.order_by,
      ...deviceQuery(params.filters),
    }
    const data = await callApi(deviceApi.list, { query, signal })
    return 'resource' in data
      ? { count: data.count, resource: data.resource.filter(isDevice), can: data.can }
      : { count: 0, resource: [], can: undefined }
  })
}
