import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime } from './datetime'

describe('date formatting', () => {
  it('shows ISO instants in Asia/Shanghai and leaves other text alone', () => {
    expect(formatDateTime('2026-11-21T19:45:16.708Z')).toBe('2026-11-22 03:45:16')
    expect(formatDate('2026-11-21T19:45:16.708Z')).toBe('2026-11-22')
    expect(formatDateTime('2026-01-02 03:04:05')).toBe('2026-01-02 03:04:05')
    expect(formatDateTime(null)).toBe('')
  })
})

describe('fullAddress', () => {
  it('says the region once', async () => {
    const { fullAddress } = await import('./address')
    expect(fullAddress('北京市朝阳区', '北京市朝阳区建国路88号')).toBe('北京市朝阳区建国路88号')
    expect(fullAddress('北京市朝阳区', '建国路88号')).toBe('北京市朝阳区建国路88号')
    expect(fullAddress('北京市朝阳区', null)).toBe('北京市朝阳区')
    expect(fullAddress('广东省广州市天河区', '广州市天河区天河路385号')).toBe('广东省广州市天河区天河路385号')
    expect(fullAddress('浙江省杭州市西湖区', '区政府路1号')).toBe('浙江省杭州市西湖区区政府路1号')
    expect(fullAddress(null, null)).toBe('')
  })
})
