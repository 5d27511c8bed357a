import { AuditStatus, reviewApi } from '@aed/contracts/review'
import { useMutation } from '@tanstack/react-query'
import { type Filters, textFilters } from '../../../components/DataTable/listParams'
import { callApi } from '../../../lib/api'
import { saveXlsxExport } from '../../../lib/download'
import type { ReviewKind } from './keys'

/** The spec's names of the exports. */
export const EXPORT_FILE_NAMES: Record<ReviewKind, string> = {
  volunteer: '公共志愿者.xlsx',
  third_party: '公共AED列表.xlsx',
}

/** The approved tab's rows with the list's filters, export_xls=true: saved from data.file_base64. */
export async function exportReview(kind: ReviewKind, filters: Filters) {
  const query = { ...textFilters(filters), export_xls: 'true' as const, audit_status: AuditStatus.APPROVED }
  const data =
    kind === 'volunteer'
      ? await callApi(reviewApi.volunteers, { query })
      : await callApi(reviewApi.thirdPartyAeds, { query })
  return saveXlsxExport(data, EXPORT_FILE_NAMES[kind])
}

/** 导出 of the approved tab: 公共志愿者.xlsx or 公共AED列表.xlsx. */
export function useExportReview(kind: ReviewKind) {
  return useMutation({ mutationFn: (filters: Filters) => exportReview(kind, filters) })
}
