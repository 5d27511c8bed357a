import { deviceApi, type FactoryDevice } from '@aed/contracts/device'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { deviceKeys } from './keys'

const isFactoryDevice = (row: object): row is FactoryDevice => 'is_register' in row
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

/** A page of the factory list (device_list_type 2): serial, model, organisation and registered filters; the toolbar's `can`. */
export function useFactoryList(request: ListRequest) {
  return useListQuery(request, deviceKeys.factory, async (params, signal) => {
    const { device_sn, model, agency_id, is_register } = params.filters
    const query = {
      device_list_type: 2,
      page: params.page,
      page_size: params.page_size,
      order_by: params.order_by ?? '-create_time',
      device_sn: text(device_sn),
      model: text(model),
      agency_id: text(agency_id),
      is_register: text(is_register),
    }
    const data = await callApi(deviceApi.list, { query, signal })
    return 'resource' in data
      ? { count: data.count, resource: data.resource.filter(isFactoryDevice), can: data.can }
      : { count: 0, resource: [], can: undefined }
  })
}
