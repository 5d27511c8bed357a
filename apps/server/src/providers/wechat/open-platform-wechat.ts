import type { WechatProvider } from './wechat-provider.ts'

type Options = { appid: string; secret: string; redirectUri: string | null; fetch?: typeof fetch }

/** WeChat Open Platform adapter: sns/oauth2/access_token turns a scan's code into an openid. */
export function openPlatformWechat(o: Options): WechatProvider {
  const doFetch = o.fetch ?? fetch
  return {
    enabled: true,
    appid: o.appid,
    redirectUri: o.redirectUri,
    async exchangeCode(code) {
      const url = new URL('https://api.weixin.qq.com/sns/oauth2/access_token')
      url.search = new URLSearchParams({
        appid: o.appid,
        secret: o.secret,
        code,
        grant_type: 'authorization_code',
      }).toString()
      const res = await doFetch(url, { signal: AbortSignal.timeout(10_000) })
      const body = (await res.json()) as {
        openid?: string
        unionid?: string
        errcode?: number
        errmsg?: string
      }
      if (!body.openid) throw new Error(`WeChat refused the code: ${body.errcode} ${body.errmsg ?? ''}`)
      return { openid: body.openid, unionid: body.unionid }
    },
  }
}
