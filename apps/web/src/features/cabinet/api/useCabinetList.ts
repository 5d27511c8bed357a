import { cabinetApi } from '@aed/contracts/cabinet'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { cabinetKeys } from './keys'

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

/** A page of the cabinet list: cabinet number, AED number, door and bind filters (spec 2.3). */
export function useCabinetList(request: ListRequest) {
  return useListQuery(request, cabinetKeys.list, (params, signal) => {
    const { cabinet_sn, device_sn, door_status, bind_status } = params.filters
    const query = {
      page: params.page,
      page_size: params.page_size,
      order_by: params.order_by,
      cabinet_sn: text(cabinet_sn),
      device_sn: text(device_sn),
      door_status: text(door_status),
      bind_status: text(bind_status),
    }
    return callApi(cabinetApi.list, { query, signal })
  })
}
