import { RequestError } from './errors'

/** Lets the browser download a file the server has prepared (an export's `file_url`). */
export function downloadUrl(url: string, fileName?: string) {
  const a = document.createElement('a')
  a.href = url
  a.rel = 'noopener'
  if (fileName) a.download = fileName
  document.body.append(a)
  a.click()
  a.remove()
}

/** Saves a file the server sent as base64 (an import's failure file) under `fileName`. */
export function downloadBase64(base64: string, fileName: string, type = 'application/octet-stream') {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  const url = URL.createObjectURL(new Blob([bytes], { type }))
  downloadUrl(url, fileName)
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** The content type of an .xlsx workbook. */
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** Saves a list's export_xls answer (data.file_base64) under `fileName`; the rows it holds. */
export function saveXlsxExport(data: object, fileName: string) {
  if (!('file_base64' in data && 'count' in data)) throw new RequestError('unknown', 'not an export')
  downloadBase64(data.file_base64 as string, fileName, XLSX)
  return data.count as number
}
