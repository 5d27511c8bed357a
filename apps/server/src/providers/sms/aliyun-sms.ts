import crypto from 'node:crypto'
import type { SmsProvider } from './sms-provider.ts'

type AliyunOptions = {
  accessKeyId: string
  accessKeySecret: string
  signName: string
  templateCode: string
  /** Notification template for alerts, with one parameter `content`; alerts fail without it. */
  notifyTemplateCode?: string
  endpoint?: string
  fetch?: typeof fetch
}

const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** Signs an Aliyun RPC request (signature method HMAC-SHA1, version 1.0). */
export function signAliyun(params: Record<string, string>, secret: string, method = 'POST'): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${enc(k)}=${enc(params[k])}`)
    .join('&')
  const toSign = `${method}&${enc('/')}&${enc(canonical)}`
  return crypto.createHmac('sha1', `${secret}&`).update(toSign).digest('base64')
}

/**
 * Aliyun Dysms SendSms. Codes use `templateCode` (one parameter `code`); notifications use
 * `notifyTemplateCode` (one parameter `content`) with the idempotency key as OutId, which the
 * vendor echoes in its delivery receipts.
 */
export function aliyunSms(o: AliyunOptions): SmsProvider {
  const doFetch = o.fetch ?? fetch

  async function send(phone: string, templateCode: string, param: Record<string, string>, outId?: string) {
    const params: Record<string, string> = {
      AccessKeyId: o.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: phone,
      RegionId: 'cn-hangzhou',
      SignName: o.signName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: crypto.randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: templateCode,
      TemplateParam: JSON.stringify(param),
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
      ...(outId ? { OutId: outId } : {}),
    }
    params.Signature = signAliyun(params, o.accessKeySecret)
    const res = await doFetch(o.endpoint ?? 'https://dysmsapi.aliyuncs.com/', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(10_000),
    })
    const body = (await res.json()) as { Code?: string; Message?: string }
    if (body.Code !== 'OK') throw new Error(`Aliyun SMS refused: ${body.Code} ${body.Message ?? ''}`)
  }

  return {
    name: 'aliyun',
    sendCode: (phone, code) => send(phone, o.templateCode, { code }),
    async sendText(phone, text, idempotencyKey) {
      if (!o.notifyTemplateCode)
        throw new Error('Aliyun SMS: no notification template (ALIYUN_SMS_NOTIFY_TEMPLATE_CODE)')
      // The vendor puts SignName in front itself: the text's own signature would show twice.
      const content = text.replace(/^【[^】]*】/, '')
      await send(phone, o.notifyTemplateCode, { content }, idempotencyKey)
    },
  }
}
