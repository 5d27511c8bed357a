import { describe, expect, it } from 'vitest'
import { readListParams, toQuery, writeListParams } from './listParams'

describe('list params in the URL', () => {
  it('reads paging, sort and filters, repeated keys as lists, fixed keys apart', () => {
    const p = readListParams(
      new URLSearchParams('page=2&page_size=20&order_by=-name&a=1&r=x&r=y&index_link=/1/'),
      ['index_link'],
    )
    expect(p).toEqual({ page: 2, page_size: 20, order_by: '-name', filters: { a: '1', r: ['x', 'y'] } })
    expect(readListParams(new URLSearchParams('page=0&page_size=x'))).toEqual({
      page: 1,
      page_size: 10,
      filters: {},
    })
  })

  it('writes defaults away and keeps fixed keys', () => {
    const out = writeListParams(
      new URLSearchParams('index_link=/1/2/&old=1'),
      { page: 1, page_size: 10, filters: { name: 'a', role: '0' } },
      ['index_link'],
    )
    expect(out.toString()).toBe('index_link=%2F1%2F2%2F&name=a&role=0')
  })

  it('flattens to a query without list values', () => {
    expect(toQuery({ page: 1, page_size: 10, order_by: 'x', filters: { a: '0', b: ['1', '2'] } })).toEqual({
      page: 1,
      page_size: 10,
      order_by: 'x',
      a: '0',
    })
  })
})
