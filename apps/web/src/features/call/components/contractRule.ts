import { isMessageKey, type Lang, translate } from '@aed/contracts/messages'
import type { Rule } from 'antd/es/form'
import type { ZodType } from 'zod'

/** The language of the contracts' messages for an i18n language. */
export const langOf = (language: string): Lang => (language === 'en-US' ? 'en-US' : 'zh-CN')

/** What a contract's schema says of `value`, in `lang`; null when it passes. */
export function contractProblem(schema: ZodType, value: unknown, lang: Lang): string | null {
  const result = schema.safeParse(value ?? undefined)
  if (result.success) return null
  const key = result.error.issues[0]?.message ?? ''
  return isMessageKey(key) ? translate(key, lang) : key
}

/** A form rule from a problem finder: the field fails with the text it gives. */
export const ruleOf = <V>(problem: (value: V) => string | null): Rule => ({
  validator: (_, value: V) => {
    const text = problem(value)
    return text ? Promise.reject(new Error(text)) : Promise.resolve()
  },
})

/** A form rule that runs a contract's schema on the field: its message is the contract's, in `lang`. */
export const contractRule = (schema: ZodType, lang: Lang): Rule =>
  ruleOf((value: unknown) => contractProblem(schema, value, lang))
