import type { WechatConfig } from './api/useWechatConfig'

export const WECHAT_QR_BASE = 'https://open.weixin.qq.com/connect/qrconnect'

/** The WeChat Open Platform QR sign-in page for a configured provider, else null. */
export function wechatQrUrl(config: WechatConfig | undefined): string | null {
  if (!config?.enabled || !config.appid || !config.redirect_uri || !config.state) return null
  const params = new URLSearchParams({
    appid: config.appid,
    redirect_uri: config.redirect_uri,
    response_type: 'code',
    scope: 'snsapi_login',
    state: config.state,
  })
  return `${WECHAT_QR_BASE}?${params.toString()}#wechat_redirect`
}
