import type { smsCodeResponse, smsScene, wechatConfigSchema } from '@aed/contracts'

export type SmsScene = ReturnType<typeof smsScene.parse>
export type SmsCodeResponse = ReturnType<typeof smsCodeResponse.parse>
export type WechatConfig = ReturnType<typeof wechatConfigSchema.parse>
