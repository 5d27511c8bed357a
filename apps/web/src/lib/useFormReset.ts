import type { FormInstance } from 'antd'
import { useEffect } from 'react'

/**
 * Resets a form to its initialValues whenever `key` takes a new non-null value. A dialog's form
 * store outlives its fields, and a remounted Form would otherwise keep the previous record's
 * values over the new initial ones.
 */
export function useFormReset(form: FormInstance, key: string | null) {
  useEffect(() => {
    if (key !== null) form.resetFields()
  }, [form, key])
}
