import { useMutation } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import type { SmsCodeResponse, SmsScene } from './types'

/** POST /api/v1/system/sms-code/: a code for one scene (login, forget, bind_wx). */
export function useSendSmsCode() {
  return useMutation({
    mutationFn: (payload: { mobile: string; scene: SmsScene }) =>
      http.post<SmsCodeResponse>('/v1/system/sms-code/', payload),
  })
}
