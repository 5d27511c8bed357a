import type { UploadResult } from '@aed/contracts/files'
import { useMutation } from '@tanstack/react-query'
import { http } from '../../lib/request'

/** POST /api/v1/system/file/ (multipart file + allow_suffix): answers where the file can be fetched. */
export function useUploadFile(allowSuffix: string) {
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData()
      body.append('allow_suffix', allowSuffix)
      body.append('file', file)
      return http.post<UploadResult>('/v1/system/file/', body)
    },
  })
}
