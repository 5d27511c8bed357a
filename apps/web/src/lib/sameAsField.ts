import type { FormRule } from 'antd'

/** A form rule: the value repeats `field`'s (an empty value passes; a `required` rule covers it). */
export function sameAsField(field: string, message: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: (_, value: unknown) =>
      !value || value === getFieldValue(field) ? Promise.resolve() : Promise.reject(new Error(message)),
  })
}
