// Multipart bodies as a browser's FormData sends them, byte for byte (the open API signs them).

/** One part of a form: a field, or a file when it has a filename. */
export type Part = { name: string; filename?: string; type?: string; data: Buffer | string }

/** A multipart/form-data body as a browser's FormData would send it. */
export function multipartBody(parts: Part[]) {
  const boundary = '----aedTestBoundary7MA4YWxkTrZu0gW'
  const chunks: Buffer[] = []
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.filename !== undefined ? `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n` : ''}\r\n`
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data),
      Buffer.from('\r\n'),
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}
