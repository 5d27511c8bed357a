import type { FormInstance } from 'antd'
import { useEffect } from 'react'

/**
 * Resets a form to its initialValues whenever `key` takes a new non-null value. A dialog's form
 * store outlives its fields, and a remounted Form would otherwise keep the previous record's
 * values over the new initial ones.
 *
 * `refreshed` (the data's fetch time) takes a refetched record too, but only while nobody has
 * typed: a live update or a language switch refetches the record under an open dialog, and must
 * not wipe what the user is entering.
 */
export function useFormReset(form: FormInstance, key: string | null, refreshed?: number) {
  useEffect(() => {
    if (key !== null) form.resetFields()
  }, [form, key])
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new fetch time asks for this (a new key reset the form above)
  useEffect(() => {
    if (key !== null && refreshed !== undefined && !form.isFieldsTouched()) form.resetFields()
  }, [form, refreshed])
}
