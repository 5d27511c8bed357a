import { type RescueRow, rescueApi } from '@aed/contracts/rescue'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { downloadUrl } from '../../../lib/download'

/**
 * 下载心电图: asks for a short-lived link to the rescue's ECG and opens it. The server's refusal
 * (文件未上传！ when the device sent none) is shown by the request client.
 */
export function useEcgDownload() {
  return useMutation({
    mutationFn: async (r: RescueRow) => {
      const file = await callApi(rescueApi.fileDownload, {
        query: {
          device_sn: r.device_sn,
          rescue_event_id: r.rescue_event_id,
          ...(r.ecg_file_url ? { ecg_file_url: r.ecg_file_url } : {}),
        },
      })
      downloadUrl(file.url, file.file_name)
      return file
    },
  })
}
