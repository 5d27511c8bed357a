/** Query keys of the signed-in account and of sign-in: memberships, security settings, WeChat config. */
export const authKeys = {
  memberships: (token?: string | null) =>
    token === undefined ? (['auth', 'memberships'] as const) : (['auth', 'memberships', token] as const),
  security: () => ['auth', 'security'] as const,
  wechatConfig: (purpose: string) => ['auth', 'wechat-config', purpose] as const,
}
