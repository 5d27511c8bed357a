import { describe, expect, it } from 'vitest'
import { aliyunSms, signAliyun } from './sms/aliyun-sms.ts'
import { openPlatformWechat } from './wechat/open-platform-wechat.ts'

function fakeFetch(answer: unknown, seen: { url?: string; body?: string }[]): typeof fetch {
  return (async (url: string | URL, init?: RequestInit) => {
    seen.push({ url: String(url), body: init?.body as string | undefined })
    return new Response(JSON.stringify(answer))
  }) as typeof fetch
}

describe('WeChat Open Platform adapter', () => {
  it('exchanges a code for an openid with the app credentials', async () => {
    const seen: { url?: string }[] = []
    const w = openPlatformWechat({
      appid: 'wx1',
      secret: 's3',
      redirectUri: null,
      fetch: fakeFetch({ openid: 'o-1' }, seen),
    })
    expect(await w.exchangeCode('abc')).toEqual({ openid: 'o-1', unionid: undefined })
    const url = new URL(seen[0].url!)
    expect(url.searchParams.get('appid')).toBe('wx1')
    expect(url.searchParams.get('secret')).toBe('s3')
    expect(url.searchParams.get('code')).toBe('abc')
    expect(url.searchParams.get('grant_type')).toBe('authorization_code')
  })

  it('throws on a WeChat error answer', async () => {
    const w = openPlatformWechat({
      appid: 'wx1',
      secret: 's',
      redirectUri: null,
      fetch: fakeFetch({ errcode: 40029, errmsg: 'invalid code' }, []),
    })
    await expect(w.exchangeCode('x')).rejects.toThrow(/40029/)
  })
})

describe('Aliyun SMS adapter', () => {
  it('signs the canonical query with HMAC-SHA1 of secret&', () => {
    // Aliyun's documented example (RPC signature v1): the same parameters give this signature.
    const params = {
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      Format: 'XML',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      SignatureVersion: '1.0',
      Timestamp: '2016-02-23T12:46:24Z',
      Version: '2014-05-26',
    }
    expect(signAliyun(params, 'testsecret', 'GET')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=')
    expect(signAliyun(params, 'testsecret')).not.toBe(signAliyun(params, 'other'))
  })

  it('sends the code as template parameter and fails on a refusal', async () => {
    const seen: { body?: string }[] = []
    const ok = aliyunSms({
      accessKeyId: 'id',
      accessKeySecret: 'sec',
      signName: 'AED云',
      templateCode: 'SMS_1',
      fetch: fakeFetch({ Code: 'OK' }, seen),
    })
    await ok.sendCode('13800000000', '123456')
    const body = new URLSearchParams(seen[0].body)
    expect(body.get('PhoneNumbers')).toBe('13800000000')
    expect(JSON.parse(body.get('TemplateParam')!)).toEqual({ code: '123456' })
    expect(body.get('Signature')).toBeTruthy()
    const bad = aliyunSms({
      accessKeyId: 'id',
      accessKeySecret: 'sec',
      signName: 's',
      templateCode: 't',
      fetch: fakeFetch({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: 'limit' }, []),
    })
    await expect(bad.sendCode('13800000000', '1')).rejects.toThrow(/BUSINESS_LIMIT_CONTROL/)
  })
})
