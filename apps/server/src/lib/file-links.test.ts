import { describe, expect, it } from 'vitest'
import { createFileLinks, FILE_LINK_TTL_MS } from './file-links.ts'

describe('signed file links', () => {
  const links = createFileLinks('s'.repeat(48))
  const now = new Date('2026-11-22T02:00:00.500Z')
  const key = 'device-files/A640000001/ecg-0123.bin'
  const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams)

  it('works for five minutes, under the path, expiry and name it was made for', () => {
    const l = links.link(key, 'ECG_A640000001_R1.bin', now)
    expect(l.url.startsWith(`/private-files/${key}?`)).toBe(true)
    expect(Date.parse(l.expires_at)).toBeLessThanOrEqual(now.getTime() + FILE_LINK_TTL_MS)
    expect(Date.parse(l.expires_at)).toBeGreaterThan(now.getTime() + FILE_LINK_TTL_MS - 1000)
    const q = queryOf(l.url)
    expect(links.verify(key, q, now)).toBe(true)
    expect(links.verify(key, q, new Date(Date.parse(l.expires_at) - 1))).toBe(true)
    expect(links.verify(key, q, new Date(l.expires_at))).toBe(false)
    expect(links.verify('device-files/A640000001/ecg-0124.bin', q, now)).toBe(false)
    expect(links.verify(key, { ...q, expires: String(Number(q.expires) + 1) }, now)).toBe(false)
    expect(links.verify(key, { ...q, download: 'x.html' }, now)).toBe(false)
    expect(links.verify(key, { ...q, signature: `${q.signature.slice(0, -1)}A` }, now)).toBe(false)
    expect(links.verify(key, { expires: q.expires, download: q.download }, now)).toBe(false)
    expect(links.verify(key, { ...q, expires: '1e12' }, now)).toBe(false)
    expect(links.verify(key, {}, now)).toBe(false)
    // Another server secret signs other links.
    expect(createFileLinks('t'.repeat(48)).verify(key, q, now)).toBe(false)
  })
})
