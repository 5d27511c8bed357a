import type { Endpoint } from '@aed/contracts'
import { IMPORT_FAILURE_FILE_NAME } from '@aed/contracts/import'
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { uploadWithProgress } from '../../lib/api'
import { downloadBase64, XLSX } from '../../lib/download'
import { ApiError } from '../../lib/errors'

/** What the import popover sends: the file, and the organisation when one may be picked. */
export type ImportFileInput = { file: File; agencyId?: number }

/**
 * A template import (multipart: import_file, agency_id, import_xls): uploads the filled template
 * with its progress and refreshes `invalidate`; a refusal (导入失败！, shown by the request client)
 * downloads the rows and their reasons as 导入失败文件.xlsx.
 */
export function useImportFile<E extends Endpoint>(
  endpoint: E,
  invalidate: QueryKey,
  failureFileName = IMPORT_FAILURE_FILE_NAME,
) {
  const client = useQueryClient()
  const [progress, setProgress] = useState(0)
  const mutation = useMutation({
    mutationFn: ({ file, agencyId }: ImportFileInput) => {
      setProgress(0)
      return uploadWithProgress(
        endpoint,
        { import_xls: 'true', ...(agencyId ? { agency_id: String(agencyId) } : {}), import_file: file },
        setProgress,
      )
    },
    onSuccess: () => client.invalidateQueries({ queryKey: invalidate }),
    onError: (error) => {
      const data = error instanceof ApiError ? (error.data as { file_base64?: unknown } | null) : null
      if (typeof data?.file_base64 === 'string') downloadBase64(data.file_base64, failureFileName, XLSX)
    },
  })
  return { ...mutation, progress }
}
