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
