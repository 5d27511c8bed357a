import { filesApi } from '@aed/contracts/files'
import { useMutation } from '@tanstack/react-query'
import { uploadApi } from '../../lib/api'

/** Uploads one file with the accepted suffixes: answers where the file can be fetched. */
export function useUploadFile(allowSuffix: string) {
  return useMutation({
    mutationFn: (file: File) => uploadApi(filesApi.upload, { allow_suffix: allowSuffix, file }),
  })
}
