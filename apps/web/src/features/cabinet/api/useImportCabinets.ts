import { CABINET_IMPORT_FAILURE_FILE_NAME, cabinetApi } from '@aed/contracts/cabinet'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { uploadWithProgress } from '../../../lib/api'
import { downloadBase64 } from '../../../lib/download'
import { ApiError } from '../../../lib/errors'
import { cabinetKeys } from './keys'

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * The cabinet import: uploads the filled template with its progress; a refusal (导入失败！, shown
 * by the request client) downloads the rows and their reasons as 导入失败文件.xlsx.
 */
export function useImportCabinets() {
  const client = useQueryClient()
  const [progress, setProgress] = useState(0)
  const mutation = useMutation({
    mutationFn: ({ file, agencyId }: { file: File; agencyId?: number }) => {
      setProgress(0)
      return uploadWithProgress(
        cabinetApi.importCabinets,
        { import_xls: 'true', ...(agencyId ? { agency_id: String(agencyId) } : {}), import_file: file },
        setProgress,
      )
    },
    onSuccess: () => client.invalidateQueries({ queryKey: cabinetKeys.all }),
    onError: (error) => {
      const data = error instanceof ApiError ? (error.data as { file_base64?: unknown } | null) : null
      if (typeof data?.file_base64 === 'string')
        downloadBase64(data.file_base64, CABINET_IMPORT_FAILURE_FILE_NAME, XLSX)
    },
  })
  return { ...mutation, progress }
}
