import { describe, expect, it } from 'vitest'
import { aliyunSms } from './aliyun-sms.ts'
import { localSms } from './local-sms.ts'

function fakeFetch(answer: unknown, seen: { body?: string }[]): typeof fetch {
  return (async (_url: string | URL, init?: RequestInit) => {
    seen.push({ body: init?.body as string | undefined })
    return new Response(JSON.stringify(answer))
  }) as typeof fetch
}

const options = { accessKeyId: 'id', accessKeySecret: 'sec', signName: 'AED云', templateCode: 'SMS_1' }

describe('SMS providers: notifications', () => {
  it('Aliyun sends the text as the notification template’s content, the key as OutId, without a second signature', async () => {
    const seen: { body?: string }[] = []
    const sms = aliyunSms({ ...options, notifyTemplateCode: 'SMS_2', fetch: fakeFetch({ Code: 'OK' }, seen) })
    await sms.sendText('13800000000', '【AED云】设备A640000001故障：电池故障', 'alerts:7:1')
    const body = new URLSearchParams(seen[0].body)
    expect(body.get('TemplateCode')).toBe('SMS_2')
    expect(JSON.parse(body.get('TemplateParam')!)).toEqual({ content: '设备A640000001故障：电池故障' })
    expect(body.get('OutId')).toBe('alerts:7:1')
    expect(body.get('SignName')).toBe('AED云')
    // Codes still use their own template and carry no OutId.
    await sms.sendCode('13800000000', '123456')
    const code = new URLSearchParams(seen[1].body)
    expect(code.get('TemplateCode')).toBe('SMS_1')
    expect(code.get('OutId')).toBeNull()
  })

  it('Aliyun fails a notification on a refusal or without a notification template', async () => {
    const refused = aliyunSms({
      ...options,
      notifyTemplateCode: 'SMS_2',
      fetch: fakeFetch({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: 'limit' }, []),
    })
    await expect(refused.sendText('13800000000', 'x', 'k')).rejects.toThrow(/BUSINESS_LIMIT_CONTROL/)
    const seen: { body?: string }[] = []
    const bare = aliyunSms({ ...options, fetch: fakeFetch({ Code: 'OK' }, seen) })
    await expect(bare.sendText('13800000000', 'x', 'k')).rejects.toThrow(/NOTIFY_TEMPLATE_CODE/)
    expect(seen).toEqual([])
  })

  it('the local provider logs a notification with its key and writes nothing itself', async () => {
    const logged: unknown[][] = []
    const db = {
      insert: () => {
        throw new Error('must not write')
      },
    } as unknown as Parameters<typeof localSms>[0]
    const sms = localSms(db, { info: (...a: unknown[]) => logged.push(a) } as never)
    await sms.sendText('13800000000', '【AED云】测试', 'alerts:1:1')
    expect(logged).toEqual([
      [{ phone: '13800000000', key: 'alerts:1:1' }, 'SMS to 13800000000: 【AED云】测试'],
    ])
  })
})
