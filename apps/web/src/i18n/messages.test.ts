import { describe, expect, it } from 'vitest'
import { shellEnUS } from './en-US'
import { shellZhCN } from './zh-CN'

type TextModule = Record<string, Record<string, unknown>>
const zhFiles = import.meta.glob<TextModule>('../features/*/i18n/zh-CN.ts', { eager: true })
const enFiles = import.meta.glob<TextModule>('../features/*/i18n/en-US.ts', { eager: true })
const texts = (files: Record<string, TextModule>) => Object.values(files).flatMap((m) => Object.values(m))
/** Every text of each language: the shell's and every feature's. */
const zhCN = Object.assign({}, shellZhCN, ...texts(zhFiles))
const enUS = Object.assign({}, shellEnUS, ...texts(enFiles))
/** The top-level keys each feature's zh-CN file defines. */
const featureKeys = Object.values(zhFiles).map((m) => Object.values(m).flatMap((t) => Object.keys(t)))

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
    expect(lookup(zhCN, 'request')).toMatchObject({
      forbidden: '无权限操作！',
      expired: '登录过期或权限不足, 请重新登陆!',
      timeoutLogin: '登陆超时请重新登录!',
      failed: '请求数据失败, 请重试!',
      network: '网络错误,请检查网络!',
      unknown: '未知错误,请重试!',
    })
    expect(lookup(zhCN, 'login.privacyRequired')).toBe('请先阅读隐私协议')
    expect(lookup(zhCN, 'password.rule')).toBe('密码必需包含8-20位字母和数字！')
    expect(lookup(zhCN, 'app.siteTitle')).toBe('AED远程管理云平台')
    expect(lookup(enUS, 'app.siteTitle')).toBe('AED remote management cloud platform')
  })

  it('give each top-level key to one file only (shell or one feature)', () => {
    const owners = [Object.keys(shellZhCN), ...featureKeys].flat()
    expect(featureKeys.length).toBeGreaterThan(5)
    expect(owners.filter((key, i) => owners.indexOf(key) !== i)).toEqual([])
  })
})
