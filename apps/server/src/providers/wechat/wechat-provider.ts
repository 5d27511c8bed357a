/** WeChat Open Platform website sign-in (QR code). */
export interface WechatProvider {
  /** False when no WeChat app is configured: every WeChat endpoint answers a clear error. */
  readonly enabled: boolean
  readonly appid: string | null
  readonly redirectUri: string | null
  /** Exchanges the code WeChat hands back after a scan for the user's openid. */
  exchangeCode(code: string): Promise<{ openid: string; unionid?: string }>
}

/** The default with no WeChat app configured. */
export const disabledWechat: WechatProvider = {
  enabled: false,
  appid: null,
  redirectUri: null,
  exchangeCode: () => Promise.reject(new Error('WeChat is not configured')),
}
