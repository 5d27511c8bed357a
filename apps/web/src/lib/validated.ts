import type { FormInstance } from 'antd'

/** The form's values when every rule passes, else null (the fields already show what failed). */
export function validated<V>(form: FormInstance<V>): Promise<V | null> {
  return form.validateFields().catch(() => null)
}
