import { describe, expect, it } from 'vitest'
import { enUS } from './en-US'
import { zhCN } from './zh-CN'

const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>

function lookup(messages: object, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages)
}

function leafKeys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [prefix]
  return Object.entries(node).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k))
}

describe('message sets', () => {
  it('have the same keys in zh-CN and en-US', () => {
    expect(leafKeys(enUS).sort()).toEqual(leafKeys(zhCN).sort())
  })

  it('define every literal key the code asks for', () => {
    const used = new Set<string>()
    for (const text of Object.values(sources)) {
      for (const match of text.matchAll(/\bt\(\s*'([\w.-]+)'/g)) used.add(match[1])
    }
    expect(used.size).toBeGreaterThan(50)
    const missing = [...used].filter(
      (key) => lookup(zhCN, key) === undefined || lookup(enUS, key) === undefined,
    )
    expect(missing).toEqual([])
  })

  it('keep the spec wording for the catalogue texts', () => {
    expect(zhCN.request).toMatchObject({
      forbidden: '无权限操作！',
      expired: '登录过期或权限不足, 请重新登陆!',
      timeoutLogin: '登陆超时请重新登录!',
      failed: '请求数据失败, 请重试!',
      network: '网络错误,请检查网络!',
      unknown: '未知错误,请重试!',
    })
    expect(zhCN.login.privacyRequired).toBe('请先阅读隐私协议')
    expect(zhCN.password.rule).toBe('密码必需包含8-20位字母和数字！')
    expect(zhCN.app.siteTitle).toBe('AED远程管理云平台')
    expect(enUS.app.siteTitle).toBe('AED remote management cloud platform')
  })
})
