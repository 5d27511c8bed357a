import { deviceIoApi, IMPORT_FAILURE_FILE_NAME } from '@aed/contracts/device-io'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { uploadWithProgress } from '../../../lib/api'
import { downloadBase64 } from '../../../lib/download'
import { ApiError } from '../../../lib/errors'
import { deviceKeys } from './keys'

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * The factory import: uploads the filled template with its progress; a refusal (导入失败！, shown
 * by the request client) downloads the rows and their reasons as 导入失败文件.xlsx.
 */
export function useImportDevices() {
  const client = useQueryClient()
  const [progress, setProgress] = useState(0)
  const mutation = useMutation({
    mutationFn: ({ file, agencyId }: { file: File; agencyId?: number }) => {
      setProgress(0)
      return uploadWithProgress(
        deviceIoApi.importDevices,
        { import_xls: 'true', ...(agencyId ? { agency_id: String(agencyId) } : {}), import_file: file },
        setProgress,
      )
    },
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.all }),
    onError: (error) => {
      const data = error instanceof ApiError ? (error.data as { file_base64?: unknown } | null) : null
      if (typeof data?.file_base64 === 'string')
        downloadBase64(data.file_base64, IMPORT_FAILURE_FILE_NAME, XLSX)
    },
  })
  return { ...mutation, progress }
}
