import { describe, expect, it } from 'vitest'
import { wechatQrUrl } from './wechatUrl'

describe('wechatQrUrl', () => {
  it('builds the qrconnect address from the server config', () => {
    const url = wechatQrUrl({
      enabled: true,
      appid: 'wx123',
      redirect_uri: 'https://aed.example/user/login',
      state: 's1',
    })
    expect(url).toBe(
      'https://open.weixin.qq.com/connect/qrconnect?appid=wx123&redirect_uri=https%3A%2F%2Faed.example%2Fuser%2Flogin&response_type=code&scope=snsapi_login&state=s1#wechat_redirect',
    )
  })

  it('is null when WeChat is not configured', () => {
    expect(wechatQrUrl({ enabled: false, appid: null, redirect_uri: null, state: null })).toBeNull()
    expect(wechatQrUrl(undefined)).toBeNull()
  })
})
