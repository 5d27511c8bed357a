import { authApi, Code, wechatApi } from '@aed/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WechatProvider } from '../../providers/wechat/wechat-provider.ts'
import { createTestApp, demo, fileTestApp, type TestApp } from '../../test/harness.ts'

describe('WeChat with no provider configured', () => {
  const t = fileTestApp()

  it('says plainly that WeChat sign-in is not configured', async () => {
    const cfg = await t.api(wechatApi.config)
    expect(cfg.data.enabled).toBe(false)
    const r = await t.api(wechatApi.login, { body: { code: 'c', state: 's' } })
    expect(r).toMatchObject({ code: Code.PROVIDER_UNAVAILABLE, msg: '未配置微信登录，请使用手机号登录' })
  })
})

describe('WeChat through a provider', () => {
  let t: TestApp
  // Stands in for WeChat's servers: each scan code names the openid it resolves to.
  const provider: WechatProvider = {
    enabled: true,
    appid: 'wx-test',
    redirectUri: 'http://localhost/user/login',
    exchangeCode: async (code) => {
      if (!code.startsWith('scan-')) throw new Error('bad code')
      return { openid: code.slice(5) }
    },
  }
  beforeAll(async () => {
    t = await createTestApp({ wechat: provider })
  })
  afterAll(() => t.close())

  const state = async (purpose: 'login' | 'bind') =>
    (await t.api(wechatApi.config, { query: { purpose } })).data.state!

  it('binds after an SMS code, signs in by scan, refuses a replayed state, unbinds', async () => {
    const token = await t.login(demo.general)
    const noSms = await t.api(wechatApi.bind, {
      token,
      body: { code: 'scan-openid-1', state: await state('bind'), sms_code: '000000' },
    })
    expect(noSms.msg).toBe('验证码错误或已过期')

    await t.api(authApi.smsCode, { body: { mobile: demo.general, scene: 'bind_wx' } })
    const bindState = await state('bind')
    const bound = await t.api(wechatApi.bind, {
      token,
      body: { code: 'scan-openid-1', state: bindState, sms_code: (await t.lastSmsCode(demo.general))! },
    })
    expect(bound).toMatchObject({ code: 0, msg: '绑定成功' })

    const loginState = await state('login')
    const signedIn = await t.api(wechatApi.login, { body: { code: 'scan-openid-1', state: loginState } })
    expect(signedIn.data).toMatchObject({ phone: demo.general, bind_wx: true })
    const replay = await t.api(wechatApi.login, {
      body: { code: 'scan-openid-1', state: loginState },
    })
    expect(replay.msg).toBe('二维码已过期，请刷新后重试')

    expect((await t.api(wechatApi.unbind, { token })).msg).toBe('解绑成功')
    expect((await t.api(wechatApi.unbind, { token })).msg).toBe('当前账号未绑定微信')
    const after = await t.api(wechatApi.login, {
      body: { code: 'scan-openid-1', state: await state('login') },
    })
    expect(after.msg).toBe('该微信未绑定账号，请先使用手机号登录并绑定微信')
  })

  it('refuses a WeChat user already bound to someone else, and unauthenticated binds', async () => {
    const a = await t.login(demo.hzAdmin)
    await t.api(authApi.smsCode, { body: { mobile: demo.hzAdmin, scene: 'bind_wx' } })
    await t.api(wechatApi.bind, {
      token: a,
      body: {
        code: 'scan-shared',
        state: await state('bind'),
        sms_code: (await t.lastSmsCode(demo.hzAdmin))!,
      },
    })
    const b = await t.login(demo.njAdmin)
    await t.api(authApi.smsCode, { body: { mobile: demo.njAdmin, scene: 'bind_wx' } })
    const r = await t.api(wechatApi.bind, {
      token: b,
      body: {
        code: 'scan-shared',
        state: await state('bind'),
        sms_code: (await t.lastSmsCode(demo.njAdmin))!,
      },
    })
    expect(r.msg).toBe('该微信已绑定其他账号')
    const anon = await t.api(wechatApi.bind, {
      body: { code: 'scan-x', state: 's', sms_code: '1' },
    })
    expect(anon.code).toBe(Code.TOKEN)
  })

  it('reports a code WeChat refuses', async () => {
    const r = await t.api(wechatApi.login, {
      body: { code: 'garbage', state: await state('login') },
    })
    expect(r).toMatchObject({ code: Code.PROVIDER_UNAVAILABLE, msg: '微信授权失败，请重试' })
  })
})
